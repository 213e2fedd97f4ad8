import { escapeHtml } from '@sesame/mail';
import express from 'express';
import type { DevSmsOutbox } from './dev-outbox';
import type { StoredSms } from './port';

function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) =>
      i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
}

export function renderDevSmsPage(messages: StoredSms[]): string {
  const items = messages
    .map(
      (m, i) => `<article aria-labelledby="sms-${i}">
<h2 id="sms-${i}">To ${escapeHtml(m.to)}</h2>
<p><time datetime="${escapeHtml(m.sentAt)}">${escapeHtml(m.sentAt)}</time> · ${escapeHtml(m.id)}</p>
<pre>${linkify(m.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Development SMS outbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Development SMS outbox</h1>
${messages.length ? items : '<p>No messages yet.</p>'}
</main></body></html>`;
}

/**
 * GET /dev/sms (HTML) and /dev/sms.json (`{"messages":[{id,to,text,sentAt}]}`, newest first) for the
 * development outbox. The caller mounts this only when SESAME_ENV is development: the messages carry links.
 */
export function devSmsRouter(outbox: DevSmsOutbox): express.Router {
  const router = express.Router();
  router.get('/dev/sms.json', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ messages: outbox.list() });
  });
  router.get('/dev/sms', (_req, res) => {
    res.set('Cache-Control', 'no-store').type('html').send(renderDevSmsPage(outbox.list()));
  });
  return router;
}
