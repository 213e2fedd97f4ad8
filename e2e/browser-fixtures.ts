// Tiny pages for the browser harness's own tests (browser-harness.e2e.test.ts), served by node:http on
// localhost: a secure context, so WebAuthn works without TLS.
import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';

interface Fixture {
  type: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

const html = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><link rel="stylesheet" href="/style.css">${head}</head><body><main>${body}</main></body></html>`;
const page = (title: string, body: string, head = ''): Fixture => ({
  type: 'text/html',
  body: html(title, body, head),
});
const signInForm =
  '<h1>Sign in</h1><form><label for="email">Email address</label><input id="email" type="email" autocomplete="email"><button type="submit">Continue</button></form>';

export const qrText = 'https://localhost/qr/approve?flow=3f9c2b7e';
// Random bytes, so no compression could bring this script under the budget.
export const bigScriptBytes = 120_000;
export const strictCsp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:";

// A discoverable credential with user verification, as the passkey pages will ask for; the status line
// says which credential was created or used.
const passkeyScript = `
const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const result = document.getElementById('result');
const challenge = () => crypto.getRandomValues(new Uint8Array(32));
document.getElementById('create').addEventListener('click', async () => {
  const cred = await navigator.credentials.create({ publicKey: {
    rp: { id: 'localhost', name: 'Sesame test' },
    user: { id: new TextEncoder().encode('user-1'), name: 'ada@example.com', displayName: 'Ada' },
    challenge: challenge(),
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  } }).catch((e) => e);
  result.textContent = cred instanceof Error ? 'error ' + cred.name : 'created ' + b64(cred.rawId);
});
document.getElementById('get').addEventListener('click', async () => {
  const cred = await navigator.credentials.get({ publicKey: {
    rpId: 'localhost', challenge: challenge(), userVerification: 'required',
  } }).catch((e) => e);
  result.textContent = cred instanceof Error ? 'error ' + cred.name : 'signed in ' + b64(cred.rawId) + ' as ' + new TextDecoder().decode(cred.response.userHandle);
});
`;

async function fixtures(): Promise<Map<string, Fixture>> {
  return new Map<string, Fixture>([
    // Cacheable, as a real stylesheet is: a second page would get it from the cache unless the harness
    // weighs a cold load.
    [
      '/style.css',
      {
        type: 'text/css',
        body: 'body{font-family:sans-serif;margin:2rem}label{display:block}',
        headers: { 'cache-control': 'public, max-age=3600' },
      },
    ],
    ['/clean', page('Sign in', signInForm)],
    [
      '/unlabelled',
      page('Sign in', '<h1>Sign in</h1><form><input type="email"><input type="image" src="/go.png"></form>'),
    ],
    ['/heavy', page('Sign in', signInForm, '<script src="/big.js"></script>')],
    ['/big.js', { type: 'text/javascript', body: `/*${randomBytes(bigScriptBytes / 2).toString('hex')}*/` }],
    [
      '/csp',
      {
        ...page(
          'Sign in',
          `${signInForm}<h3>Help</h3><p id="inline-ran">no</p><script>document.getElementById('inline-ran').textContent='yes'</script>`,
          '<script src="/app.js" defer></script>',
        ),
        headers: { 'content-security-policy': strictCsp },
      },
    ],
    ['/app.js', { type: 'text/javascript', body: "document.documentElement.dataset.app = 'ran';" }],
    [
      '/passkey',
      page(
        'Passkey',
        '<h1>Passkey</h1><button id="create">Create a passkey</button><button id="get">Sign in with a passkey</button><p role="status" id="result"></p>',
        '<script src="/passkey.js" defer></script>',
      ),
    ],
    ['/passkey.js', { type: 'text/javascript', body: passkeyScript }],
    [
      '/qr',
      page(
        'Approve on your phone',
        `<h1>Approve on your phone</h1><img alt="Sign-in QR code" width="200" height="200" src="${await QRCode.toDataURL(qrText, { width: 200 })}">`,
      ),
    ],
  ]);
}

export interface FixtureServer {
  origin: string;
  /** Request headers of the latest request for each path. */
  seen: Map<string, IncomingHttpHeaders>;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const routes = await fixtures();
  const seen = new Map<string, IncomingHttpHeaders>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    seen.set(path, req.headers);
    const fixture = routes.get(path);
    if (!fixture) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': fixture.type, ...fixture.headers }).end(fixture.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
