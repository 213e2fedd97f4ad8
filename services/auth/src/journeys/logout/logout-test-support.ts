// Test support only: signed ID token hints, the apps, and a signed-in browser for the /logout tests.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { MemoryEventBus } from '@sesame/events';
import { events, type directory, type keys, topics } from '@sesame/proto';
import { TestBrowser, authorizePath, client, startAuth } from '../../testing/hosted-test-client';

export const ISSUER = 'http://localhost';
const published = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** An RS256 JWT with kid k1, signed by `key` (the published key unless a test forges one). */
export function jwt(claims: Record<string, unknown>, key = published.privateKey): string {
  const head = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'k1', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${head}.${body}.${sign('sha256', Buffer.from(`${head}.${body}`), key).toString('base64url')}`;
}

/** Keys.VerifySignature as jwks answers it: the payload when the published key verifies the JWS. */
async function verifySignature(jws: string): Promise<string | undefined> {
  const [head = '', body = '', sig = ''] = jws.split('.');
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    published.publicKey,
    Buffer.from(sig, 'base64url'),
  );
  return ok ? Buffer.from(body, 'base64url').toString('utf8') : undefined;
}

const shop: directory.Client = {
  ...client,
  postLogoutRedirectUris: ['https://rp.example/signed-out'],
  backchannelLogoutUri: 'https://rp.example/backchannel-logout',
};
const other: directory.Client = { ...client, clientId: 'client-2', appId: 'app-2', appName: 'Blog' };
const foreign: directory.Client = {
  ...client,
  tenantId: 'tenant-2',
  clientId: 'client-b',
  appId: 'app-b',
  postLogoutRedirectUris: ['https://b.example/signed-out'],
};
const clients = new Map([shop, other, foreign].map((c) => [c.clientId, c]));

export type Auth = Awaited<ReturnType<typeof startAuth>>;
export type OAuthError = { error: string; error_description: string };

/**
 * Starts auth (`start`, for startedForSuite) on in-memory stores with the apps above (client-1 "Shop" of tenant-1 with a back-channel logout URI,
 * client-2 of tenant-1, client-b of tenant-2), the Keys calls of /logout, and what it signed and published.
 */
export function logoutAuth() {
  const signed: keys.SignLogoutTokenRequest[] = [];
  const bus = new MemoryEventBus();
  const start = () =>
    startAuth({
      bus,
      peers: {
        getClient: async (id) => clients.get(id),
        verifySignature,
        signLogoutToken: async (request) => {
          signed.push(request);
          return `logout-token-${signed.length}`;
        },
      },
    });
  /** The LogoutNotices published since the last call. */
  const notices = () => {
    const batch = bus.nextBatch('test', [topics.logoutNotices], true, 1000) ?? [];
    bus.commit('test', batch);
    return batch.map((e) => events.LogoutNotice.decode(e.value));
  };
  return { start, signed, notices };
}

/** Signs a new person in by email code in a fresh browser; returns it, their sub and the ID token's sid. */
export async function signIn(auth: Auth, email: string) {
  const browser = auth.browser();
  const first = await browser.request(authorizePath());
  const csrf = TestBrowser.csrf(first.body);
  const emailAction = TestBrowser.formAction(first.body);
  await browser.request(emailAction, { form: { csrf, email } });
  const flow = emailAction.replace(/\/email$/, '');
  await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
  const done = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
  assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  const claims = auth.issued.at(-1)!.claims!;
  assert.ok(claims.sid, 'the ID token of a browser sign-in carries sid');
  return { browser, sub: claims.sub, sid: claims.sid };
}

/** Whether the browser's next /authorize shows the sign-in page (no session) rather than signing in at once. */
export async function showsSignInPage(browser: TestBrowser): Promise<boolean> {
  const next = await browser.request(authorizePath());
  return next.status === 200 && /name="email"/.test(next.body);
}

/** An ID token of client-1 naming `sub` and `sid` (expired long ago: a hint may be), signed by the published key. */
export const hint = (sub: string, sid: string, extra: Record<string, unknown> = {}) =>
  jwt({ iss: ISSUER, sub, aud: 'client-1', sid, iat: 1_700_000_000, exp: 1_700_000_600, ...extra });
