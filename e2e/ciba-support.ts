// Support for ciba.e2e.test.ts: a stand-in SMS provider and a ping receiver on loopback, raw /token polls,
// and creating CIBA apps through the admin API.
import assert from 'node:assert/strict';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';

export interface Received {
  path: string;
  authorization: string;
  body: string;
}

/** An HTTP server on loopback recording every request; answers `status` with `answer`. */
export async function recorder(answer: (r: Received) => { status: number; json: unknown }) {
  const seen: Received[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const r = { path: req.url ?? '', authorization: req.headers.authorization ?? '', body };
      seen.push(r);
      for (const w of waiters.splice(0)) w();
      const { status, json } = answer(r);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    /** Resolves once `n` requests have arrived. */
    async count(n: number, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (seen.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${seen.length} of ${n} requests arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 500);
        });
      }
      return seen;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** POST /authorize_ciba with client_secret_basic. */
export async function startCiba(
  base: string,
  client: { id: string; secret: string },
  form: Record<string, string>,
) {
  const res = await fetch(`${base}/authorize_ciba`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(client.id, client.secret),
    },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, 200, `/authorize_ciba: ${JSON.stringify(body)}`);
  return body as { auth_req_id: string; expires_in: number; link?: string; interval?: number };
}

/** One raw CIBA poll at /token. */
export async function poll(base: string, client: { id: string; secret: string }, authReqId: string) {
  const res = await fetch(`${base}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(client.id, client.secret),
    },
    body: new URLSearchParams({ grant_type: CIBA_GRANT, auth_req_id: authReqId }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls once per interval (1 s, plus a margin) until the answer is no longer authorization_pending. */
export async function pollUntilDone(
  base: string,
  client: { id: string; secret: string },
  authReqId: string,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await poll(base, client, authReqId);
    if (answer.body.error !== 'authorization_pending' && answer.body.error !== 'slow_down') return answer;
    if (Date.now() > deadline) throw new Error(`still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 1100)); // the protocol's interval, not a guess at an event
  }
}

/** A new application of the demo tenant through the admin API, with the CIBA settings given. */
export async function createCibaApp(
  platform: { url: string; adminKey: string },
  tenantId: string,
  name: string,
  ciba: Record<string, unknown>,
) {
  const res = await fetch(`${platform.url}/api/v1/admin/tenants/${tenantId}/applications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.adminKey}` },
    body: JSON.stringify({ name, redirectUris: ['http://localhost:3000/callback'], ciba }),
  });
  const body = (await res.json()) as { clientId: string; clientSecret: string };
  assert.equal(res.status, 201, `create app: ${JSON.stringify(body)}`);
  return { id: body.clientId, secret: body.clientSecret };
}
