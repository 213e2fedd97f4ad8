import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually } from '@sesame/testing';
import { type Browser, type BrowserContext, launchBrowser } from '@sesame/testing/browser';
import { decodeJwt } from 'jose';
import { type Received, createCibaApp, recorder } from './ciba-support';
import { freshEmail } from './hosted-signin-support';
import { startRealPlatform } from './real-platform';
import {
  type Person,
  followLogout,
  personBrowser,
  signIn,
  silently as silentlyTo,
} from './standard-rp-person';
import {
  BACKCHANNEL_LOGOUT_EVENT,
  type RpSetup,
  type RpTokens,
  type StandardRp,
  authlibRp,
  isError,
  openidClientRp,
} from './standard-rp-support';

/**
 * Two relying-party libraries Sesame did not write, from two ecosystems — openid-client v6 (Node.js) and
 * Authlib (Python, installed by scripts/tools/python-rp.mjs, run as a subprocess per call) — against the six
 * services on the real Redis, Kafka, Mongo-wire and SMTP servers, Chromium doing the person's part. Each
 * library runs the code flow with `openid email profile offline_access`, userinfo, refresh with rotation and
 * reuse detection, introspection, revocation, prompt=none with and without a session, max_age, and the
 * claims parameter, each by its own API and checks (ID token verified against jwks_uri), then RP-initiated
 * logout by its own end-session URL and the back-channel logout_token it verifies; and the hostile
 * cases (another client's refresh and introspection, prompt=none needing a page, a malformed claims
 * parameter): each the RFC's error, nothing changed.
 */
// Each test and hook of this file may take this long (starting the platform, sign-ins with mail round trips).
jest.setTimeout(180_000);

const FULL_SCOPE = 'openid email profile offline_access';

let env: Awaited<ReturnType<typeof startRealPlatform>>;
let browser: Browser;
let sms: Awaited<ReturnType<typeof recorder>>;
/** The demo app's backchannel_logout_uri: records every logout_token ciba-notifier POSTs. */
let logouts: Awaited<ReturnType<typeof recorder>>;
let python: string;
const contexts: BrowserContext[] = [];

/** The Python of the Authlib RP: SESAME_PYTHON_RP_BIN (npm test sets it), else the project's script makes it. */
async function pythonRp(): Promise<string> {
  const tool = join(dirname(fileURLToPath(import.meta.url)), '../scripts/tools/python-rp.mjs');
  const { ensurePythonRp } = (await import(pathToFileURL(tool).href)) as {
    ensurePythonRp(opts: { log: (m: string) => void }): string;
  };
  return ensurePythonRp({ log: (m) => console.log(m) });
}

beforeAll(async () => {
  python = await pythonRp();
  sms = await recorder((r) => ({ status: 201, json: { sid: `SM${r.body.length}` } }));
  logouts = await recorder(() => ({ status: 200, json: {} }));
  env = await startRealPlatform('standard-rp', {
    smtp: true,
    env: {
      // Every browser here is 127.0.0.1 and the per-IP mail throttle lives in the shared Redis across runs.
      SESAME_MAILS_PER_IP: '100000',
      SESAME_SMS_URL: `${sms.url}/2010-04-01/Accounts/AC1/Messages.json`,
      SESAME_SMS_FROM: '+15005550006',
      SESAME_SMS_USER: 'AC1',
      SESAME_SMS_PASSWORD: 'sms-token',
    },
  });
  browser = await launchBrowser();
  // The demo app's logout settings, through the admin API as an integrator sets them.
  const patched = await fetch(
    `${env.platform.url}/api/v1/admin/tenants/${env.demo.tenantId}/applications/${env.demo.appId}`,
    {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.platform.adminKey}` },
      body: JSON.stringify({
        postLogoutRedirectUris: [signedOut()],
        backchannelLogoutUri: `${logouts.url}/backchannel-logout`,
      }),
    },
  );
  assert.equal(patched.status, 200, `PATCH application: ${await patched.text()}`);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await env?.stop();
  await sms?.close();
  await logouts?.close();
});

const setup = () => ({
  issuer: env.platform.url,
  clientId: env.demo.clientId,
  clientSecret: env.demo.clientSecret,
  redirectUri: env.demo.redirectUri,
});

/** The demo app's registered post_logout_redirect_uri. */
/** Answered by the test's own server, so Chromium's landing page loads (no late error page, no stray port). */
const signedOut = () => `${logouts.url}/signed-out`;

/** The logout_token POSTed (form-encoded) to the demo app's backchannel_logout_uri for the session `sid`. */
async function logoutTokenFor(sid: string): Promise<string> {
  const tokenOf = (r: Received) => new URLSearchParams(r.body).get('logout_token') ?? '';
  const ofSession = (token: string) => {
    try {
      return decodeJwt(token).sid === sid;
    } catch {
      return false;
    }
  };
  const found = await eventually(
    async () => logouts.seen.map(tokenOf).find(ofSession),
    (token) => token !== undefined,
    60_000,
    200,
  );
  assert.ok(found, `no logout_token for sid ${sid} among ${logouts.seen.length} deliveries`);
  return found;
}

const newPerson = () => personBrowser(browser, contexts);
const silently = (who: Person, url: string) => silentlyTo(who, url, env.demo.redirectUri);

const tokensOf = (answer: RpTokens | { error: string }): RpTokens => {
  if (isError(answer)) throw new Error(`the library reported ${answer.error}`);
  return answer;
};

const libraries: Array<[string, (client: RpSetup) => Promise<StandardRp>]> = [
  ['openid-client v6 (Node.js)', (client) => openidClientRp(client)],
  ['Authlib (Python)', async (client) => authlibRp(client, python)],
];

describe.each(libraries)('%s as the RP of Sesame', (name, makeRp) => {
  let rp: StandardRp;
  /** The same library as another application of the tenant. */
  let otherClient: StandardRp;
  let person: Person;
  const email = freshEmail('standard-rp');
  let signedIn: RpTokens;
  beforeAll(async () => {
    rp = await makeRp(setup());
    const other = await createCibaApp(env.platform, env.demo.tenantId, `other ${name}`, { mode: 'poll' });
    otherClient = await makeRp({ ...setup(), clientId: other.id, clientSecret: other.secret });
    person = await newPerson();
  });

  it('code flow with scope openid email profile offline_access: Chromium signs in, the library verifies the ID token', async () => {
    const req = await rp.authorize({ scope: FULL_SCOPE });
    await person.page.goto(req.url);
    signedIn = tokensOf(await req.finish(await signIn(person, email)));
    assert.equal(signedIn.claims.iss, env.platform.url);
    assert.equal(signedIn.claims.aud, env.demo.clientId);
    assert.equal(signedIn.claims.email, email);
    assert.equal(signedIn.claims.email_verified, true);
    assert.deepEqual(signedIn.scope?.split(' ').sort(), FULL_SCOPE.split(' ').sort());
    assert.ok(signedIn.refreshToken, 'offline_access granted: a refresh token');
  });

  it('userinfo answers sub and the email of the granted scope', async () => {
    const info = await rp.userinfo(signedIn.accessToken);
    assert.equal(info.status, 200);
    assert.deepEqual(info.body, { sub: signedIn.claims.sub, email, email_verified: true });
  });

  it('refresh rotates the token; a replayed one revokes the family, so the rotated one fails too', async () => {
    const refreshed = tokensOf(await rp.refresh(signedIn.refreshToken!));
    assert.ok(refreshed.refreshToken);
    assert.notEqual(refreshed.refreshToken, signedIn.refreshToken);
    assert.equal(refreshed.claims.sub, signedIn.claims.sub);
    assert.equal(refreshed.claims.auth_time, signedIn.claims.auth_time);
    assert.equal((await rp.userinfo(refreshed.accessToken)).status, 200);
    assert.deepEqual(await rp.refresh(signedIn.refreshToken!), { error: 'invalid_grant' });
    assert.deepEqual(await rp.refresh(refreshed.refreshToken!), { error: 'invalid_grant' });
    assert.equal((await rp.userinfo(refreshed.accessToken)).status, 401);
  });

  it('prompt=none with the live session answers a code without a page; introspection sees its tokens', async () => {
    const req = await rp.authorize({ scope: FULL_SCOPE, prompt: 'none' });
    const silent = tokensOf(await req.finish(await silently(person, req.url)));
    assert.equal(silent.claims.sub, signedIn.claims.sub);
    assert.equal(silent.claims.auth_time, signedIn.claims.auth_time);
    const access = await rp.introspect(silent.accessToken);
    assert.equal(access.active, true);
    assert.equal(access.client_id, env.demo.clientId);
    assert.equal(access.sub, signedIn.claims.sub);
    assert.equal((await rp.introspect(silent.refreshToken!)).active, true);
    signedIn = silent;
  });

  it('revocation: a revoked refresh token no longer refreshes, a revoked access token no longer answers', async () => {
    await rp.revoke(signedIn.refreshToken!, 'refresh_token');
    assert.deepEqual(await rp.refresh(signedIn.refreshToken!), { error: 'invalid_grant' });
    assert.deepEqual(await rp.introspect(signedIn.refreshToken!), { active: false });
    // Revoking the family ended its access token too; a token of a new silent code is revoked alone.
    assert.equal((await rp.userinfo(signedIn.accessToken)).status, 401);
    const req = await rp.authorize({ scope: 'openid email', prompt: 'none' });
    const next = tokensOf(await req.finish(await silently(person, req.url)));
    assert.equal((await rp.userinfo(next.accessToken)).status, 200);
    await rp.revoke(next.accessToken, 'access_token');
    assert.equal((await rp.userinfo(next.accessToken)).status, 401);
    assert.deepEqual(await rp.introspect(next.accessToken), { active: false });
  });

  it('the claims parameter: email asked for the ID token and userinfo with scope openid alone', async () => {
    const claims = JSON.stringify({ id_token: { email: { essential: true } }, userinfo: { email: null } });
    const req = await rp.authorize({ scope: 'openid', prompt: 'none', claims });
    const tokens = tokensOf(await req.finish(await silently(person, req.url)));
    assert.equal(tokens.claims.email, email);
    assert.deepEqual((await rp.userinfo(tokens.accessToken)).body, { sub: tokens.claims.sub, email });
  });

  it('hostile: another client’s refresh is invalid_grant and its introspection inactive; the tokens still work', async () => {
    const req = await rp.authorize({ scope: FULL_SCOPE, prompt: 'none' });
    const mine = tokensOf(await req.finish(await silently(person, req.url)));
    assert.deepEqual(await otherClient.refresh(mine.refreshToken!), { error: 'invalid_grant' });
    assert.deepEqual(await otherClient.introspect(mine.accessToken), { active: false });
    assert.deepEqual(await otherClient.introspect(mine.refreshToken!), { active: false });
    assert.equal((await rp.introspect(mine.accessToken)).active, true);
    assert.ok(tokensOf(await rp.refresh(mine.refreshToken!)).refreshToken);
  });

  it('hostile: prompt=none needing a page is consent_required or interaction_required, a malformed claims parameter invalid_request; the session stays', async () => {
    const display_data = { payee: 'Shop', payment_amount: '10 EUR', payment_method: 'card' };
    const transaction = JSON.stringify({ id_token: { svc_psd2_transaction: { value: { display_data } } } });
    const consent = await rp.authorize({ scope: 'openid', prompt: 'none', claims: transaction });
    assert.deepEqual(await consent.finish(await silently(person, consent.url)), {
      error: 'consent_required',
    });
    const phone = await rp.authorize({
      scope: 'openid',
      prompt: 'none',
      acr_values: 'ts.svc.iac.phone_number',
    });
    assert.deepEqual(await phone.finish(await silently(person, phone.url)), {
      error: 'interaction_required',
    });
    const malformed = await rp.authorize({ scope: 'openid', claims: '{"id_token":{"email":true}}' });
    assert.deepEqual(await malformed.finish(await silently(person, malformed.url)), {
      error: 'invalid_request',
    });
    const still = await rp.authorize({ scope: 'openid', prompt: 'none' });
    assert.ok(new URL(await silently(person, still.url)).searchParams.get('code'));
  });

  it('prompt=none without a session: login_required to the redirect URI, no page', async () => {
    const stranger = await newPerson();
    const req = await rp.authorize({ scope: 'openid email', prompt: 'none' });
    const callback = await silently(stranger, req.url);
    assert.equal(new URL(callback).searchParams.get('error'), 'login_required');
    assert.deepEqual(await req.finish(callback), { error: 'login_required' });
  });

  it('max_age older than the session: the sign-in step again, then a new auth_time the library accepts', async () => {
    await new Promise((r) => setTimeout(r, 2_100)); // the session must be older than max_age=1
    const req = await rp.authorize({ scope: 'openid email', max_age: '1' });
    await person.page.goto(req.url);
    await person.page.getByLabel('Email address').waitFor();
    const tokens = tokensOf(await req.finish(await signIn(person, email), { maxAge: 1 }));
    assert.equal(tokens.claims.sub, signedIn.claims.sub);
    assert.ok(Number(tokens.claims.auth_time) > Number(signedIn.claims.auth_time));
  });

  // This describe's person still has the live session the logout ends.
  describe('logout', () => {
    let live: RpTokens;

    it('RP-initiated logout by the library’s end-session URL: Chromium lands on the post-logout redirect with the state; the next /authorize shows the sign-in page', async () => {
      const req = await rp.authorize({ scope: 'openid', prompt: 'none' });
      live = tokensOf(await req.finish(await silently(person, req.url)));
      assert.equal(typeof live.claims.sid, 'string', 'the ID token carries the session’s sid');
      const state = `bye-${Math.random().toString(36).slice(2, 10)}`;
      const url = await rp.endSessionUrl({
        idTokenHint: live.idToken,
        postLogoutRedirectUri: signedOut(),
        state,
      });
      const endpoint = `${env.platform.url}/logout`;
      const params = new URL(url).searchParams;
      assert.ok(url.startsWith(`${endpoint}?`), url);
      assert.deepEqual(
        [params.get('id_token_hint'), params.get('post_logout_redirect_uri'), params.get('state')],
        [live.idToken, signedOut(), state],
      );
      // The hint names this session: it ends at once, no confirmation page.
      assert.equal(await followLogout(person, url, endpoint, signedOut()), `${signedOut()}?state=${state}`);

      const next = await rp.authorize({ scope: 'openid email' });
      await person.page.goto(next.url);
      await person.page.getByLabel('Email address').waitFor();
      const silent = await rp.authorize({ scope: 'openid', prompt: 'none' });
      assert.deepEqual(await silent.finish(await silently(person, silent.url)), { error: 'login_required' });
    });

    it('back-channel logout: the app’s backchannel_logout_uri receives a logout_token the library verifies', async () => {
      const sid = String(live.claims.sid);
      const token = await logoutTokenFor(sid);
      const verified = await rp.verifyLogoutToken(token, sid);
      if ('error' in verified) throw new Error(`the library refused the logout_token: ${verified.error}`);
      assert.equal(verified.claims.iss, env.platform.url);
      assert.equal(verified.claims.aud, env.demo.clientId);
      assert.equal(verified.claims.sub, live.claims.sub);
      assert.equal(verified.claims.sid, live.claims.sid);
      assert.deepEqual(verified.claims.events, { [BACKCHANNEL_LOGOUT_EVENT]: {} });
      assert.equal('nonce' in verified.claims, false);
      // The receiving side's sid check is real: the same token does not end another session.
      assert.ok('error' in (await rp.verifyLogoutToken(token, `${sid}-other`)));
    });
  });
});

describe('acr_values=ts.svc.iac.phone_number in Chromium', () => {
  it('signs in through the SMS code to the RP redirect (the phone pages allow the RP in form-action)', async () => {
    const rp = await openidClientRp(setup());
    const person = await newPerson();
    const req = await rp.authorize({ scope: 'openid email phone', acr_values: 'ts.svc.iac.phone_number' });
    await person.page.goto(req.url);
    const callback = await signIn(person, freshEmail('standard-rp-phone'), { number: '+41797654300', sms });
    assert.ok(callback.startsWith(env.demo.redirectUri));
    const tokens = tokensOf(await req.finish(callback));
    assert.equal(tokens.claims.phone_number, '+41797654300');
    assert.equal(tokens.claims.phone_number_verified, true);
    assert.ok(String(tokens.claims.acr).split(' ').includes('ts.svc.iac.phone_number'));
  });
});
