import type { StoredMail } from './port';

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML text node or a double- or single-quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

/** Plain text with its http(s) links made clickable, so a developer can follow a magic link from here. */
function textWithLinks(text: string): string {
  const parts = text.split(/(https?:\/\/[^\s<>"']+)/g);
  return parts
    .map((part, i) =>
      i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
}

/**
 * One message. Its HTML body is shown in an iframe with an empty sandbox (no scripts, no forms, an
 * opaque origin) through srcdoc, so nothing in it runs or reaches this page; the plain-text body is escaped.
 */
function renderMessage(mail: StoredMail, index: number): string {
  const heading = `mail-${index}`;
  return `<article aria-labelledby="${heading}">
<h2 id="${heading}">${escapeHtml(mail.subject)}</h2>
<dl>
<dt>To</dt><dd>${escapeHtml(mail.to)}</dd>${mail.fromName ? `\n<dt>From</dt><dd>${escapeHtml(mail.fromName)}</dd>` : ''}${mail.replyTo ? `\n<dt>Reply-To</dt><dd>${escapeHtml(mail.replyTo)}</dd>` : ''}
<dt>Sent</dt><dd><time datetime="${escapeHtml(mail.sentAt)}">${escapeHtml(mail.sentAt)}</time></dd>
<dt>Id</dt><dd>${escapeHtml(mail.id)}</dd>
</dl>
<h3>Text</h3>
<pre>${textWithLinks(mail.text)}</pre>
<h3>HTML</h3>
<iframe sandbox="" srcdoc="${escapeHtml(mail.html)}" title="HTML body of: ${escapeHtml(mail.subject)}" width="100%" height="640"></iframe>
</article>`;
}

/** The whole page: no script, no inline style, so it renders the same under the strictest CSP. */
export function renderDevMailPage(messages: StoredMail[]): string {
  const body =
    messages.length === 0
      ? '<p>No mail yet. Messages the platform sends appear here, newest first.</p>'
      : messages.map(renderMessage).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development outbox (${messages.length})</title>
</head>
<body>
<main>
<h1>Development outbox</h1>
<p>Mail kept in memory by this process instead of being sent (development only). As JSON: <a href="mail.json">mail.json</a>.</p>
${body}
</main>
</body>
</html>
`;
}
