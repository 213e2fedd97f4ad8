import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { CIBA_GRANT_TYPE } from '@sesame/oauth';
import { sha256 } from '@sesame/platform';
import { directory } from '@sesame/proto';
import { startedForSuite } from '@sesame/testing/suite';
import { type DpopKey, dpopKey } from '../../testing/dpop-proof';
import { RP_REDIRECT, rpCalls } from '../../testing/rp-client';
import { sampleClaims } from '../../testing/sample-claims';
import {
  TEST_ISSUER,
  type TokenAnswer,
  basic,
  postToken,
  startTokenHarness,
} from '../../testing/token-harness';

const TOKEN_URL = `${TEST_ISSUER}/token`;
const USERINFO_URL = `${TEST_ISSUER}/userinfo`;
const VERIFIER = 'dBjftJeZ4CK-P0mWp1u3jJqzdUFtFhPq0MDbP8hGdXk';
const conf = { clientId: 'dpop-conf', secret: 'dpop-secret' };
const pub = { clientId: 'dpop-public' };
const required = { clientId: 'dpop-required', secret: 'required-secret' };
const refreshable = { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 };
const ALGS = 'algs="ES256 PS256 RS256 EdDSA"';

describe('DPoP at /token, /userinfo and /introspect (RFC 9449)', () => {
  const h = startedForSuite(startTokenHarness);
  const rp = rpCalls(h);
  let key: DpopKey;
  let otherKey: DpopKey;
  beforeAll(async () => {
    key = await dpopKey('ES256');
    otherKey = await dpopKey('EdDSA');
    h.directory.addClient({ ...conf, refreshTokens: refreshable });
    h.directory.addClient({ ...pub, refreshTokens: refreshable });
    h.directory.addClient({ ...required, dpopBoundAccessTokens: true });
    h.directory.addApiCredentials('dpop-api', 'api-secret');
  });

  const tokenProof = (k = key, claims?: Record<string, unknown>) =>
    k.proof('POST', TOKEN_URL, h.clock.now(), claims ? { claims } : {});

  /** A code for `client` (bound to `dpopJkt` when given), redeemed with `headers`. */
  async function redeem(
    client: { clientId: string; secret?: string },
    headers: Record<string, string>,
    dpopJkt = '',
  ) {
    const pkce = client.secret ? {} : { codeChallenge: sha256(VERIFIER), codeChallengeMethod: 'S256' };
    const code = await rp.issueCode(client, { ...pkce, dpopJkt });
    const answer = await h.post(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: RP_REDIRECT,
        client_id: client.clientId,
        ...(client.secret ? { client_secret: client.secret } : { code_verifier: VERIFIER }),
      },
      headers,
    );
    return { code, answer };
  }

  async function userinfo(headers: Record<string, string>): Promise<TokenAnswer> {
    const res = await fetch(`${h.url}/userinfo`, { headers });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  }

  const dpopAuth = async (token: unknown, k = key, claims?: Record<string, unknown>) => ({
    authorization: `DPoP ${String(token)}`,
    dpop: await k.proof('GET', USERINFO_URL, h.clock.now(), {
      accessToken: String(token),
      ...(claims ? { claims } : {}),
    }),
  });

  it('hostile: a DPoP-bound access token is refused as Bearer, without its proof, with another key or a replayed proof', async () => {
    const { answer } = await redeem(conf, { dpop: await tokenProof() });
    const token = String(answer.body.access_token);
    const asBearer = await userinfo({ authorization: `Bearer ${token}` });
    assert.equal(asBearer.status, 401);
    assert.equal(asBearer.body.error, 'invalid_token');
    assert.equal(
      asBearer.headers.get('www-authenticate'),
      `DPoP realm="sesame", error="invalid_token", error_description="the access token is DPoP-bound: send it as Authorization: DPoP with a DPoP proof", ${ALGS}`,
    );
    const noProof = await userinfo({ authorization: `DPoP ${token}` });
    assert.equal(noProof.status, 401);
    assert.equal(noProof.body.error_description, 'a DPoP-bound access token needs a DPoP proof');
    const stolenKey = await userinfo(await dpopAuth(token, otherKey));
    assert.equal(stolenKey.status, 401);
    assert.equal(stolenKey.body.error, 'invalid_token');
    assert.equal(
      stolenKey.body.error_description,
      'the DPoP proof is not by the key the access token is bound to',
    );
    const once = await dpopAuth(token);
    assert.equal((await userinfo(once)).status, 200);
    const replayed = await userinfo(once);
    assert.equal(replayed.status, 401);
    assert.equal(replayed.body.error, 'invalid_dpop_proof');
    assert.equal(
      replayed.headers.get('www-authenticate'),
      `DPoP realm="sesame", error="invalid_dpop_proof", error_description="DPoP proof jti has already been used", ${ALGS}`,
    );
    const noAth = await userinfo({
      authorization: `DPoP ${token}`,
      dpop: await key.proof('GET', USERINFO_URL, h.clock.now()),
    });
    assert.equal(noAth.body.error_description, 'DPoP proof must carry ath for the access token');
    const forToken = await userinfo({ authorization: `DPoP ${token}`, dpop: await tokenProof() });
    assert.equal(forToken.body.error, 'invalid_dpop_proof');
  });

  it('binds the code grant to the proof key: token_type DPoP, userinfo with the proof, introspection with cnf.jkt', async () => {
    const { answer } = await redeem(conf, { dpop: await tokenProof() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.token_type, 'DPoP');
    const info = await userinfo(await dpopAuth(answer.body.access_token));
    assert.equal(info.status, 200, JSON.stringify(info.body));
    assert.equal(info.body.email, 'j@example.com');
    const introspected = await rp.introspect(conf, answer.body.access_token);
    assert.equal(introspected.body.token_type, 'DPoP');
    assert.deepEqual(introspected.body.cnf, { jkt: key.jkt });
    // Without a proof the same client gets a Bearer token, with no cnf.
    const bearer = (await redeem(conf, {})).answer;
    assert.equal(bearer.body.token_type, 'Bearer');
    const plain = await rp.introspect(conf, bearer.body.access_token);
    assert.equal(plain.body.token_type, 'Bearer');
    assert.equal('cnf' in plain.body, false);
  });

  it('a bound token is not active for Grants.IntrospectAccessToken (its callers take Bearer tokens only)', async () => {
    const { answer } = await redeem(conf, { dpop: await tokenProof() });
    const got = await h.grants.introspectAccessToken({ accessToken: String(answer.body.access_token) });
    assert.equal(got.active, false);
  });

  it('a code bound by dpop_jkt needs a proof by that key (invalid_grant) and is not used up by a wrong one', async () => {
    const code = await rp.issueCode(conf, { dpopJkt: key.jkt });
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: RP_REDIRECT,
      ...{ client_id: conf.clientId, client_secret: conf.secret },
    };
    const none = await h.post(form);
    assert.equal(none.status, 400);
    assert.deepEqual(none.body, {
      error: 'invalid_grant',
      error_description: 'the code is bound to a DPoP key: send a DPoP proof',
    });
    const wrong = await h.post(form, { dpop: await tokenProof(otherKey) });
    assert.deepEqual(wrong.body, {
      error: 'invalid_grant',
      error_description: 'the code is bound to another DPoP key',
    });
    const right = await h.post(form, { dpop: await tokenProof() });
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.equal(right.body.token_type, 'DPoP');
  });

  it("binds a public client's refresh token to its key: refresh needs a proof by the same key and keeps the binding", async () => {
    const { answer } = await redeem(pub, { dpop: await tokenProof() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const family = await rp.introspect(conf, answer.body.refresh_token);
    assert.equal(family.body.active, false, 'another client may not introspect it');
    const refresh = {
      grant_type: 'refresh_token',
      refresh_token: String(answer.body.refresh_token),
      client_id: pub.clientId,
    };
    const bare = await h.post(refresh);
    assert.deepEqual(bare.body, {
      error: 'invalid_grant',
      error_description: 'the refresh token is bound to a DPoP key: send a DPoP proof',
    });
    const stolen = await h.post(refresh, { dpop: await tokenProof(otherKey) });
    assert.deepEqual(stolen.body, {
      error: 'invalid_grant',
      error_description: 'the refresh token is bound to another DPoP key',
    });
    const refreshed = await h.post(refresh, { dpop: await tokenProof() });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal(refreshed.body.token_type, 'DPoP');
    assert.equal((await userinfo(await dpopAuth(refreshed.body.access_token))).status, 200);
    const next = await h.post(
      { ...refresh, refresh_token: String(refreshed.body.refresh_token) },
      { dpop: await tokenProof(otherKey) },
    );
    assert.equal(next.body.error_description, 'the refresh token is bound to another DPoP key');
  });

  it("a confidential client's refresh token is not bound: refreshing without a proof gives a Bearer token", async () => {
    const { answer } = await redeem(conf, { dpop: await tokenProof() });
    const refreshed = await rp.refresh(conf, answer.body.refresh_token);
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.token_type, 'Bearer');
  });

  it('an application that requires DPoP gets invalid_dpop_proof without a proof', async () => {
    const refused = (await redeem(required, {})).answer;
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, {
      error: 'invalid_dpop_proof',
      error_description: 'this client must send a DPoP proof (DPoP header)',
    });
    const ok = (await redeem(required, { dpop: await tokenProof() })).answer;
    assert.equal(ok.body.token_type, 'DPoP');
  });

  it('client_credentials with a proof issues a DPoP-bound API token, with cnf.jkt on introspection', async () => {
    const form = { grant_type: 'client_credentials', scope: 'svc_admin_api' };
    const answer = await h.post(form, {
      authorization: basic('dpop-api', 'api-secret'),
      dpop: await tokenProof(),
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.token_type, 'DPoP');
    const introspected = await postToken(
      `${h.url}/introspect`,
      { token: String(answer.body.access_token) },
      { authorization: basic('dpop-api', 'api-secret') },
    );
    assert.equal(introspected.body.token_type, 'DPoP');
    assert.deepEqual(introspected.body.cnf, { jkt: key.jkt });
  });

  it('binds the CIBA grant (poll and ping) to the proof key: token_type DPoP, userinfo only with a proof', async () => {
    for (const mode of [
      directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL,
      directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING,
    ]) {
      const ciba = { clientId: `dpop-ciba-${mode}`, secret: 'ciba-secret' };
      h.directory.addClient({ ...ciba, ciba: { mode, notificationEndpoint: 'https://rp.example/ping' } });
      const { authReqId } = await h.grants.startBackchannel({
        tenantId: 'tenant-1',
        appId: 'app-1',
        clientId: ciba.clientId,
        scope: 'openid email',
        clientNotificationToken: 'notif-token',
        expiresIn: 0,
        flowId: 'flow-ciba',
      });
      await h.grants.completeBackchannel({ authReqId, claims: sampleClaims() });
      const form = { grant_type: CIBA_GRANT_TYPE, auth_req_id: authReqId };
      const answer = await h.post(form, {
        authorization: basic(ciba.clientId, ciba.secret),
        dpop: await tokenProof(),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.token_type, 'DPoP');
      const token = answer.body.access_token;
      assert.equal((await userinfo(await dpopAuth(token))).status, 200);
      assert.equal((await userinfo({ authorization: `Bearer ${String(token)}` })).status, 401);
      assert.equal((await userinfo(await dpopAuth(token, otherKey))).status, 401);
      assert.deepEqual((await rp.introspect(ciba, token)).body.cnf, { jkt: key.jkt });
    }
  });

  it('refuses a bad proof at /token with 400 invalid_dpop_proof: replayed, stale iat, wrong htu', async () => {
    const proof = await tokenProof();
    assert.equal((await redeem(conf, { dpop: proof })).answer.status, 200);
    const replay = (await redeem(conf, { dpop: proof })).answer;
    assert.equal(replay.status, 400);
    assert.deepEqual(replay.body, {
      error: 'invalid_dpop_proof',
      error_description: 'DPoP proof jti has already been used',
    });
    const stale = await key.proof('POST', TOKEN_URL, h.clock.now() - 61_000);
    assert.equal(
      (await redeem(conf, { dpop: stale })).answer.body.error_description,
      'DPoP proof is too old (iat)',
    );
    const ahead = await key.proof('POST', TOKEN_URL, h.clock.now() + 31_000);
    assert.equal(
      (await redeem(conf, { dpop: ahead })).answer.body.error_description,
      'DPoP proof iat is in the future',
    );
    const elsewhere = await key.proof('POST', 'https://rp.example/token', h.clock.now());
    assert.equal(
      (await redeem(conf, { dpop: elsewhere })).answer.body.error_description,
      'DPoP proof htu does not match the endpoint URL',
    );
  });
});

describe('DPoP server nonces (SESAME_DPOP_NONCE_SECRET)', () => {
  const h = startedForSuite(() => startTokenHarness({ env: { SESAME_DPOP_NONCE_SECRET: 'n'.repeat(40) } }));
  beforeAll(() => h.directory.addApiCredentials('nonce-api', 'api-secret'));

  it('answers use_dpop_nonce with a DPoP-Nonce header, then accepts a proof carrying it', async () => {
    const key = await dpopKey();
    const form = { grant_type: 'client_credentials', scope: 'svc_admin_api' };
    const auth = { authorization: basic('nonce-api', 'api-secret') };
    const first = await h.post(form, { ...auth, dpop: await key.proof('POST', TOKEN_URL, h.clock.now()) });
    assert.equal(first.status, 400);
    assert.deepEqual(first.body, {
      error: 'use_dpop_nonce',
      error_description: 'DPoP proof must carry the server nonce',
    });
    const nonce = first.headers.get('dpop-nonce');
    assert.ok(nonce && nonce.length === 43, String(nonce));
    const second = await h.post(form, {
      ...auth,
      dpop: await key.proof('POST', TOKEN_URL, h.clock.now(), { claims: { nonce } }),
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.token_type, 'DPoP');
  });
});
