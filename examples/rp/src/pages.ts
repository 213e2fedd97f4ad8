// Server-rendered pages of the sample app: plain HTML, a few lines of CSS inline, no script, no external asset.
import type { SignedIn, SignedOut } from './sessions';

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const esc = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => escapes[c]!);

const css = `body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1f}
a.button,button{display:inline-block;font:inherit;padding:.5rem 1.2rem;border-radius:.4rem;border:0;background:#1d4ed8;color:#fff;text-decoration:none;cursor:pointer}
a.button:focus-visible,button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
pre{background:#f3f4f6;padding:1rem;overflow:auto;font-size:.85rem}.notice{border-left:4px solid #1d4ed8;padding:.5rem 1rem;background:#eff6ff}
.error{border-left-color:#b91c1c;background:#fef2f2}`;

/** One page: lang, a title, the heading the content brings, a skip-free single <main>. */
export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)} · Sesame sample app</title><style>${css}</style></head><body><main>${body}</main></body></html>`;
}

const signOutForm = '<form method="post" action="/logout"><button type="submit">Sign out</button></form>';

/** The home page: Sign in, or who is signed in; what ended the last session when one ended. */
export function homePage(opts: {
  issuer: string;
  session?: SignedIn;
  ended?: SignedOut;
  justSignedOut?: boolean;
}) {
  const notice = opts.ended
    ? `<p class="notice" role="status">${
        opts.ended.by === 'back-channel'
          ? 'Signed out by Sesame (back-channel): your session there ended, so this app ended its own.'
          : opts.justSignedOut
            ? 'Signed out: of this app and of Sesame.'
            : 'Signed out of this app.'
      }</p>`
    : '';
  const body = opts.session
    ? `<p>${esc(signedInAs(opts.session.claims))}.</p><p><a href="/claims">See what Sesame said about you</a></p>${signOutForm}`
    : `<p>This app signs you in with Sesame at <code>${esc(opts.issuer)}</code> (OpenID Connect, the authorization code flow with PKCE).</p><p><a class="button" href="/login">Sign in</a></p>`;
  return layout('Home', `<h1>Sesame sample app</h1>${notice}${body}`);
}

const amrWords: Record<string, string> = {
  'ts.svc.mfca': 'a passkey',
  'ts.svc.email_otp': 'an email code',
  'ts.svc.email_magic_link': 'an email link',
  'ts.svc.device': 'a known device',
  'ts.svc.ama': 'on a mobile phone',
};
const acrWords: Record<string, string> = {
  'ts.svc.iac.email': 'a verified email address',
  'ts.svc.iac.phone_number': 'a verified mobile phone',
  'ts.svc.app_bound_cred': 'a credential bound to this app',
};

const list = (words: string[]) =>
  words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
const time = (seconds: unknown) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toUTCString() : 'not said';

export function signedInAs(claims: Record<string, unknown>): string {
  return `Signed in as ${claims.email ?? claims.sub}`;
}

/** The amr values in words ("a passkey", "an email code"); an unknown value is shown as it is. */
export function howInWords(amr: unknown): string {
  const values = Array.isArray(amr) ? amr.map(String) : [];
  return values.length ? list(values.map((v) => amrWords[v] ?? v)) : 'not said';
}

/** The acr values (space-separated) in words. */
export function assuranceInWords(acr: unknown): string {
  const values = typeof acr === 'string' ? acr.split(' ').filter(Boolean) : [];
  return values.length ? list(values.map((v) => acrWords[v] ?? v)) : 'none';
}

function deviceInWords(info: unknown): string | undefined {
  const device = (info as { authenticating_device?: Record<string, unknown> } | undefined)
    ?.authenticating_device;
  if (!device) return undefined;
  const parts = [device.device_name, device.os_type, device.browser_type].filter(Boolean);
  return parts.length ? parts.join(', ') : undefined;
}

/** The claims page: the ID token in words, then its claims and the userinfo answer as they came. */
export function claimsPage(session: SignedIn): string {
  const c = session.claims;
  const rows: Array<[string, unknown]> = [
    ['Subject (sub)', c.sub],
    ['Email', c.email === undefined ? undefined : `${c.email}${c.email_verified ? ' (verified)' : ''}`],
    ['Signed in at (auth_time)', time(c.auth_time)],
    ['How (amr)', howInWords(c.amr)],
    ['Assurance (acr)', assuranceInWords(c.acr)],
    ['Device', deviceInWords(c.svc_info)],
    ['Issuer (iss)', c.iss],
    ['For this app (aud)', c.aud],
    ['Sesame session (sid)', c.sid],
    ['Token expires (exp)', time(c.exp)],
  ];
  const dl = rows
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('');
  return layout(
    'Your sign-in',
    `<h1>${esc(signedInAs(c))}</h1><p>Sesame's ID token, verified by openid-client against the issuer's keys, says:</p><dl>${dl}</dl>` +
      `<h2>The ID token's claims</h2><pre>${esc(JSON.stringify(c, null, 2))}</pre>` +
      `<h2>The userinfo answer</h2><pre>${esc(JSON.stringify(session.userinfo, null, 2))}</pre>` +
      `<p><a href="/">Home</a></p>${signOutForm}`,
  );
}

/** A sign-in that did not finish (an error redirect, a state that does not match, ...): what and what next. */
export function problemPage(heading: string, detail: string): string {
  return layout(
    heading,
    `<h1>${esc(heading)}</h1><p class="notice error" role="alert">${esc(detail)}</p><p><a class="button" href="/login">Sign in again</a> <a href="/">Home</a></p>`,
  );
}
