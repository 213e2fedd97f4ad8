import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type Listening, buildHttpApp, listen } from '@sesame/platform';
import { type Gen, seeded, testSeed } from '@sesame/testing';
import { type TokenHarness, basic, startTokenHarness } from '../../testing/token-harness';

/**
 * Differential test of POST /token answered ahead of express (the raw route, as runStandalone hosts it)
 * against the express mount (hosts without raw routes), over generated requests: grant types valid, unknown
 * and repeated; client credentials in Basic, in the form, both, wrong or malformed; content types; bodies
 * too large or oddly encoded; browser origins; request ids. Both must answer with the same status, JSON body
 * (issued tokens aside) and headers.
 */

const SEED = testSeed(2_611_2026);
const REQUESTS = 400;
const CIBA = 'urn:openid:params:grant-type:ciba';
const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~';
/** Headers that differ by nature: the clock, and an id generated per request when none (sane) was sent. */
const PER_REQUEST = ['date', 'keep-alive', 'connection'];

type Form = Array<[string, string]>;

const credentials = (g: Gen): [string, string] =>
  g.pick<[string, string]>([
    ['api-cred', 'api-secret'],
    ['api-cred', 'api-secret'],
    ['api-cred', 'wrong-secret'],
    ['conf', 'conf-secret'],
    ['conf', 'nope'],
    ['spa', ''],
    ['nobody', 'whatever'],
    ['', ''],
    ['a:b', 'c%d'],
  ]);

function form(g: Gen): Form {
  const pairs: Form = [];
  const grant = g.pick([
    'client_credentials',
    'client_credentials',
    'authorization_code',
    CIBA,
    'password',
    'refresh_token',
    '',
    '__proto__',
    'toString',
  ]);
  if (!g.chance(0.05)) pairs.push(['grant_type', grant]);
  if (grant === 'client_credentials' || g.chance(0.2))
    pairs.push(['scope', g.pick(['svc_admin_api', 'svc_admin_api', 'openid', 'svc_admin_api other', ''])]);
  if (grant === 'authorization_code' || g.chance(0.1)) {
    pairs.push(['code', g.pick(['unknown', g.text(CHARS, 10, 43)])]);
    if (g.chance(0.8))
      pairs.push(['redirect_uri', g.pick(['https://rp.example/cb', 'https://spa.example/cb'])]);
    if (g.chance(0.5)) pairs.push(['code_verifier', g.text(CHARS, 10, 60)]);
  }
  if (grant === CIBA || g.chance(0.1)) pairs.push(['auth_req_id', g.text(CHARS, 1, 30)]);
  if (g.chance(0.05)) pairs.push(['grant_type', grant]);
  if (g.chance(0.05)) pairs.push([g.text(CHARS, 1, 8), g.text(CHARS, 0, 8)]);
  return pairs;
}

interface Request {
  headers: Record<string, string>;
  body: string;
  method: string;
}

/** A valid client_credentials request, its secret in Basic or in the form. */
function valid(g: Gen): Request {
  const pairs: Form = [
    ['grant_type', 'client_credentials'],
    ['scope', 'svc_admin_api'],
  ];
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (g.chance(0.5)) headers.authorization = basic('api-cred', 'api-secret');
  else pairs.push(['client_id', 'api-cred'], ['client_secret', 'api-secret']);
  if (g.chance(0.3)) headers['x-request-id'] = g.pick(['req-42', 'a b']);
  return { headers, body: new URLSearchParams(pairs).toString(), method: 'POST' };
}

function request(g: Gen): Request {
  if (g.chance(0.25)) return valid(g);
  const pairs = form(g);
  const headers: Record<string, string> = {};
  const [id, secret] = credentials(g);
  g.pick([
    () => {
      headers.authorization = basic(id, secret);
    },
    () => pairs.push(['client_id', id], ['client_secret', secret]),
    () => pairs.push(['client_id', id]),
    () => {
      headers.authorization = basic(id, secret);
      pairs.push(['client_id', id], ['client_secret', secret]);
    },
    () => {
      headers.authorization = g.pick(['Basic', 'Basic !!!', `Bearer ${secret}`, `Basic ${btoa(id)}`]);
    },
    () => {},
  ])();
  let body = new URLSearchParams(pairs).toString();
  if (g.chance(0.05)) body = body.replaceAll('%20', '+').replaceAll('_', '%5F');
  if (g.chance(0.03)) body += '&%E0%A4%A=1';
  if (g.chance(0.03)) body += `&pad=${'x'.repeat(g.pick([16 * 1024, 20_000]))}`;
  const contentType = g.pick([
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=UTF-8',
    'APPLICATION/X-WWW-FORM-URLENCODED',
    'application/json',
    'text/plain',
    'multipart/form-data; boundary=x',
    '',
  ]);
  if (contentType) headers['content-type'] = contentType;
  if (contentType === 'application/json') body = JSON.stringify(Object.fromEntries(pairs));
  if (g.chance(0.2))
    headers.origin = g.pick(['https://spa.example', 'https://rp.example', 'https://evil.example', 'null']);
  if (g.chance(0.3)) headers['x-request-id'] = g.pick(['req-42', 'a.b_c', 'a b', 'x'.repeat(129), '<x>']);
  return { headers, body, method: g.chance(0.03) ? g.pick(['GET', 'PUT']) : 'POST' };
}

/** Status, body and headers, with what is random by design (issued tokens, generated ids) blanked. */
async function answer(url: string, r: Request) {
  const res = await fetch(url, {
    method: r.method,
    headers: r.headers,
    body: r.method === 'GET' ? undefined : r.body,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    for (const name of ['access_token', 'id_token']) if (name in json) json[name] = `<${name}>`;
    body = json;
  } catch {}
  const sentId = r.headers['x-request-id'];
  const headers = Object.fromEntries(
    [...res.headers]
      .filter(([name]) => !PER_REQUEST.includes(name))
      .map(([name, value]) => {
        if (name === 'x-request-id' && value !== sentId) return [name, '<generated>'];
        // A JSON body's length follows its (random) token.
        if (name === 'content-length' && typeof body === 'object') return [name, '<length>'];
        return [name, value];
      }),
  );
  return { status: res.status, body, headers };
}

describe('POST /token: the raw route answers as the express mount does, over generated requests', () => {
  let h: TokenHarness;
  let viaExpress: Listening;
  beforeAll(async () => {
    // No throttling of failed client authentication here: both hosts share its counters.
    h = await startTokenHarness({
      env: { SESAME_AUTH_FAILURES_PER_CLIENT_IP: '0', SESAME_AUTH_FAILURES_PER_IP: '0' },
    });
    h.directory.addApiCredentials('api-cred', 'api-secret');
    h.directory.addClient({
      clientId: 'conf',
      secret: 'conf-secret',
      redirectUris: ['https://rp.example/cb'],
    });
    h.directory.addClient({ clientId: 'spa', redirectUris: ['https://spa.example/cb'] });
    viaExpress = await listen(
      buildHttpApp(h.module, () => false),
      0,
      '127.0.0.1',
    );
  });
  afterAll(async () => {
    await viaExpress?.close(500);
    await h?.stop();
  });

  it(`same status, JSON body and headers for every generated request (seed ${SEED})`, async () => {
    const g = seeded(SEED);
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      const r = request(g);
      const raw = await answer(`${h.url}/token`, r);
      const express = await answer(`http://127.0.0.1:${viaExpress.port}/token`, r);
      assert.deepEqual(raw, express, JSON.stringify(r).slice(0, 500));
      statuses.set(raw.status, (statuses.get(raw.status) ?? 0) + 1);
    }
    // The generator reaches successes, protocol errors and client authentication failures.
    for (const status of [200, 400, 401])
      assert.ok((statuses.get(status) ?? 0) > 10, JSON.stringify([...statuses]));
  });
});
