import { oneLineValue } from './display-text';
import { type MailKind, type MailTemplate, fill, hasButton } from './mail-templates';
import { buttonLabel } from './settings';

/** What a mail shows of the brand (resolved: defaults filled in). */
export interface MailBrand {
  name: string;
  /** Absolute URL of the logo served by auth, when there is one. */
  logoUrl?: string;
  accentLight: string;
  accentDark: string;
  supportUrl?: string;
  privacyUrl?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Escapes text for HTML text and quoted attributes, as numeric references (every mail client reads them). */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Footer words per locale (the layout's own; the template's texts come from the tenant). */
const FOOTER: Record<string, { support: string; privacy: string; by: string; orCopy: string }> = {
  en: { support: 'Help', privacy: 'Privacy', by: 'Secure sign-in by Sesame', orCopy: 'Or copy this link:' },
  de: {
    support: 'Hilfe',
    privacy: 'Datenschutz',
    by: 'Sichere Anmeldung mit Sesame',
    orCopy: 'Oder kopieren Sie diesen Link:',
  },
  fr: {
    support: 'Aide',
    privacy: 'Confidentialité',
    by: 'Connexion sécurisée par Sesame',
    orCopy: 'Ou copiez ce lien :',
  },
};

const paragraphs = (html: string, style: string) =>
  html
    .split(/\n{2,}/)
    .map((p) => `<p style="${style}">${p.replace(/\n/g, '<br>')}</p>`)
    .join('');

/**
 * One mail in THE layout: a table-based, inline-styled HTML part (a real button, a dark-mode stylesheet for
 * clients that honour it) and a plain-text part. Every placeholder value is escaped in the HTML part; the
 * template's own text is escaped too, so a template can never add markup.
 */
export function renderMail(input: {
  kind: MailKind;
  locale: string;
  template: MailTemplate;
  values: Record<string, string>;
  brand: MailBrand;
}): RenderedMail {
  const { template, values, brand } = input;
  const words = FOOTER[input.locale] ?? FOOTER.en!;
  const plain = (t: string) => fill(t, values);
  // The template's own text is escaped, then each value; the code stands out (the one value copied by hand).
  const html = (t: string) =>
    fill(escapeHtml(t), values, (v, name) =>
      name === 'code'
        ? `<strong style="font-size:24px;letter-spacing:4px;white-space:nowrap">${escapeHtml(v)}</strong>`
        : escapeHtml(v),
    );
  const attr = (t: string) => fill(escapeHtml(t), values, (v) => escapeHtml(v));
  const link = values.link ?? '';
  const button = hasButton(input.kind) && link;
  const label = buttonLabel(brand.accentLight);

  const textParts = [plain(template.heading), plain(template.body)];
  if (button) textParts.push(`${plain(template.button)}:\n${link}`);
  const links = [
    brand.supportUrl ? `${words.support}: ${brand.supportUrl}` : '',
    brand.privacyUrl ? `${words.privacy}: ${brand.privacyUrl}` : '',
  ].filter(Boolean);
  textParts.push(['--', brand.name, ...links, words.by].join('\n'));

  const p = 'margin:0 0 16px;font-size:16px;line-height:24px';
  const footLinks = [
    brand.supportUrl
      ? `<a href="${escapeHtml(brand.supportUrl)}" style="color:#4b5563">${words.support}</a>`
      : '',
    brand.privacyUrl
      ? `<a href="${escapeHtml(brand.privacyUrl)}" style="color:#4b5563">${words.privacy}</a>`
      : '',
  ].filter(Boolean);
  const out = `<!doctype html>
<html lang="${escapeHtml(input.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${attr(template.subject)}</title>
<style>
@media (prefers-color-scheme: dark) {
  .s-bg { background:#0b1120 !important; }
  .s-card { background:#111827 !important; color:#f3f4f6 !important; }
  .s-muted, .s-muted a { color:#9ca3af !important; }
  .s-button { background:${brand.accentDark} !important; }
  .s-button a { color:${buttonLabel(brand.accentDark)} !important; }
}
@media (max-width: 600px) { .s-card { padding:24px 16px !important; } }
</style>
</head>
<body class="s-bg" style="margin:0;padding:0;background:#f3f4f6">
<div style="display:none;max-height:0;overflow:hidden;opacity:0">${attr(template.preheader)}</div>
<table role="presentation" class="s-bg" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6">
<tr><td align="center" style="padding:24px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px">
<tr><td align="center" style="padding:0 0 16px;font:700 18px/24px system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#111827" class="s-muted">${
    brand.logoUrl
      ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="40" style="height:40px;max-width:200px;border:0">`
      : escapeHtml(brand.name)
  }</td></tr>
<tr><td class="s-card" style="background:#ffffff;color:#111827;border-radius:12px;padding:32px 28px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<h1 style="margin:0 0 16px;font-size:22px;line-height:28px">${html(template.heading)}</h1>
${paragraphs(html(template.body), p)}${
  button
    ? `
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px"><tr>
<td class="s-button" align="center" bgcolor="${brand.accentLight}" style="background:${brand.accentLight};border-radius:8px">
<a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:600;color:${label};text-decoration:none;border-radius:8px">${html(template.button)}</a>
</td></tr></table>
<p class="s-muted" style="margin:0;font-size:13px;line-height:20px;color:#4b5563;word-break:break-all">${words.orCopy} ${escapeHtml(link)}</p>`
    : ''
}
</td></tr>
<tr><td align="center" class="s-muted" style="padding:16px;font:13px/20px system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#4b5563">${[
    ...footLinks,
    words.by,
  ].join(' · ')}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  // The subject is a header: a value stored before names were checked (an app name with CR/LF) stays one line.
  const subject = oneLineValue(fill(template.subject, values, oneLineValue));
  return { subject, text: `${textParts.join('\n\n')}\n`, html: out };
}
