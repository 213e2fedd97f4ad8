import {
  type MailKind,
  type MailLocale,
  brandCss,
  escapeHtml,
  logoPath,
  mailKinds,
  mailLocales,
  renderMail,
} from '@sesame/branding';
import express from 'express';
import { mailTemplateOf, settingsOf } from '../use-cases/branding/branding-changes';
import { previewSettings } from './branding-script';
import type { ConsoleDeps } from './context';
import { allowedRoute } from './page-kit';
import { CONSOLE_CSS } from './style';

/** Sample values the previews fill the placeholders with. */
const SAMPLE: Record<string, string> = {
  code: '123456',
  email: 'ada@example.com',
  expiresInMinutes: '10',
  expiresInHours: '72',
  role: 'administrator',
  link: 'https://auth.example.com/link/sample',
};

/**
 * A preview is a document of its own, shown in a sandboxed frame of the Branding page: inline styles only,
 * images only from auth_url (the logo), no script, framed only by the console.
 *
 * The frames are `sandbox="allow-same-origin"`: no script, form, popup or top navigation, as with `sandbox=""`,
 * but the document keeps the console's origin. With an opaque origin chromium puts each preview in a process
 * of its own, and a click right after a scroll was routed by the frames' old positions: a **Save mail template**
 * click landed in a preview and sent nothing. Keeping the origin is safe here because no script can run in a
 * preview (the sandbox and this CSP both forbid it), and the previews hold nothing but escaped text.
 */
const previewHeaders = (authUrl: string) => ({
  'Content-Security-Policy': [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `img-src ${new URL(authUrl).origin} data:`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Type': 'text/html; charset=utf-8',
});

/** Forces a colour scheme: the dark rules apply always (dark) or never (light). */
const forceScheme = (css: string, dark: boolean) =>
  css
    .replace(/@media not all and \(prefers-color-scheme: dark\)/g, dark ? '@media not all' : '@media all')
    .replace(/@media \(prefers-color-scheme: dark\)/g, dark ? '@media all' : '@media not all');

/** The previews of the Branding page: the sign-in page and each mail, in light or dark. */
export function brandingPreviews(deps: ConsoleDeps) {
  const router = express.Router();
  const authUrl = deps.client.issuer.replace(/\/+$/, '');

  router.get(
    '/branding/preview/page',
    allowedRoute('branding.read', async (req, res, s) => {
      const dark = req.query.scheme === 'dark';
      const record = await deps.dir.branding.get(s.tenant.tenantId);
      const settings = previewSettings(req.query, settingsOf(record));
      const name = settings.displayName || s.tenant.name;
      const logo = settings.logo
        ? `<img class="brand-logo" style="max-height:3rem;max-width:12rem" src="${escapeHtml(authUrl + logoPath(s.tenant.tenantId, '', settings.logo.contentType, settings.logo.hash))}" alt="${escapeHtml(name)}">`
        : escapeHtml(name);
      const css = forceScheme(`${CONSOLE_CSS}\n${brandCss(settings)}`, dark);
      res.set(previewHeaders(authUrl)).send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in – ${escapeHtml(name)}</title><style>${css}
body{display:flex;flex-direction:column;align-items:center;background:var(--bg)}</style></head>
<body><header class="brand" style="padding:1.5rem 1rem 1rem;font-weight:700">${logo}</header>
<main class="card" style="max-width:28rem;width:100%;padding:1.5rem;background:var(--card);border:1px solid var(--line);border-radius:var(--radius)">
<h1>Sign in</h1><p>to continue to ${escapeHtml(name)}</p>
<label for="e">Email address</label><input id="e" type="email" value="ada@example.com" style="width:100%">
<p><button type="button" style="background:var(--accent);color:var(--accent-text)">Continue</button></p>
</main><footer class="foot"><small>Secure sign-in by Sesame</small></footer></body></html>`);
    }),
  );

  router.get(
    '/branding/preview/mail',
    allowedRoute('branding.read', async (req, res, s) => {
      const kind = (mailKinds as readonly string[]).includes(String(req.query.mail))
        ? (req.query.mail as MailKind)
        : 'sign-in-code';
      const locale = (mailLocales as readonly string[]).includes(String(req.query.locale))
        ? (req.query.locale as MailLocale)
        : 'en';
      const record = await deps.dir.branding.get(s.tenant.tenantId);
      const settings = previewSettings(req.query, settingsOf(record));
      const { template } = await mailTemplateOf(deps.dir.branding, s.tenant.tenantId, kind, locale);
      const name = settings.displayName || s.tenant.name;
      const mail = renderMail({
        kind,
        locale,
        template,
        values: { ...SAMPLE, app: name, tenant: s.tenant.name },
        brand: {
          name,
          accentLight: settings.light?.accent ?? '#1d4ed8',
          accentDark: settings.dark?.accent ?? '#60a5fa',
          ...(settings.logo
            ? {
                logoUrl:
                  authUrl + logoPath(s.tenant.tenantId, '', settings.logo.contentType, settings.logo.hash),
              }
            : {}),
          ...(settings.supportUrl ? { supportUrl: settings.supportUrl } : {}),
          ...(settings.privacyUrl ? { privacyUrl: settings.privacyUrl } : {}),
        },
      });
      res.set(previewHeaders(authUrl)).send(forceScheme(mail.html, req.query.scheme === 'dark'));
    }),
  );
  return router;
}
