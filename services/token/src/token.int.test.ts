import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { RedisKeyValueStore } from '@sesame/kv';
import { sha256 } from '@sesame/platform';
import { realServers, sleep } from '@sesame/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { backchannelRequest } from './testing/backchannel-request';
import { sampleClaims } from './testing/sample-claims';
import { TEST_ISSUER, type TokenHarness, basic, startTokenHarness } from './testing/token-harness';

const REDIRECT = 'https://rp.example/cb';
const CIBA = 'urn:openid:params:grant-type:ciba';
/** A poll-mode CIBA request of the confidential client int-conf. */
const cibaRequest = (expiresIn: number) =>
  backchannelRequest({
    tenantId: 'tenant-int',
    appId: 'app-int',
    clientId: 'int-conf',
    expiresIn,
    flowId: 'flow-ciba-int',
  });
/** int-conf's token request for the outcome of `authReqId`. */
const cibaPoll = (authReqId: string) => ({
  grant_type: CIBA,
  auth_req_id: authReqId,
  client_id: 'int-conf',
  client_secret: 'int-secret',
});

describe('token against real Redis (faked Directory and Keys peers over gRPC)', () => {
  const { redisUrl } = realServers();
  let h: TokenHarness;
  let redis: RedisKeyValueStore;
  beforeAll(async () => {
    h = await startTokenHarness({ redisUrl });
    redis = RedisKeyValueStore.connect(redisUrl, 'sesame:token:');
    h.directory.addClient({ clientId: 'int-conf', secret: 'int-secret' });
    h.directory.addApiCredentials('int-cred', 'int-api-secret', 'tenant-int');
  });
  afterAll(async () => {
    await redis.close();
    await h.stop();
  });

  const issue = () =>
    h.grants
      .issueCode({
        tenantId: 'tenant-int',
        appId: 'app-int',
        clientId: 'int-conf',
        redirectUri: REDIRECT,
        scope: 'openid',
        codeChallenge: '',
        codeChallengeMethod: '',
        dpopJkt: '',
        flowId: 'flow-int',
        claims: sampleClaims(),
      })
      .then((r) => r.code);
  const redeem = (code: string) =>
    h.post({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: 'int-conf',
      client_secret: 'int-secret',
    });

  it('stores a code under sesame:token:code:<sha256> with its TTL, never under its value', async () => {
    const code = await issue();
    const ttl = await redis.ttlMs(`code:${sha256(code)}`);
    assert.ok(ttl !== null && ttl > 55_000 && ttl <= 60_000, `ttl ${ttl}`);
    assert.equal(await redis.get(`code:${code}`), null);
  });

  it('redeems a code for an access token stored hashed with its TTL and an ID token that verifies', async () => {
    const res = await redeem(await issue());
    assert.equal(res.status, 200);
    const token = String(res.body.access_token);
    const stored = await redis.get(`access:${sha256(token)}`);
    assert.ok(stored);
    assert.equal(stored.includes(token), false);
    const ttl = await redis.ttlMs(`access:${sha256(token)}`);
    assert.ok(ttl !== null && ttl > 3590_000 && ttl <= 3600_000, `ttl ${ttl}`);
    const { payload } = await jwtVerify(String(res.body.id_token), createLocalJWKSet(await h.keys.jwks()), {
      issuer: TEST_ISSUER,
      audience: 'int-conf',
    });
    assert.equal(payload.sub, sampleClaims().sub);
  });

  it('a replayed code fails with invalid_grant and revokes the token issued from it', async () => {
    const code = await issue();
    const first = await redeem(code);
    const token = String(first.body.access_token);
    const replay = await redeem(code);
    assert.equal(replay.status, 400);
    assert.equal(replay.body.error, 'invalid_grant');
    assert.equal(await redis.get(`access:${sha256(token)}`), null);
    assert.equal((await h.grants.introspectAccessToken({ accessToken: token })).active, false);
  });

  it('of 10 concurrent redemptions at most one succeeds and its token ends up revoked', async () => {
    const code = await issue();
    const answers = await Promise.all(Array.from({ length: 10 }, () => redeem(code)));
    const ok = answers.filter((a) => a.status === 200);
    assert.ok(ok.length <= 1);
    for (const a of ok) {
      assert.equal(
        (await h.grants.introspectAccessToken({ accessToken: String(a.body.access_token) })).active,
        false,
      );
    }
  });

  it('runs client_credentials and introspection end to end', async () => {
    const res = await h.post(
      { grant_type: 'client_credentials', scope: 'svc_admin_api' },
      { authorization: basic('int-cred', 'int-api-secret') },
    );
    assert.equal(res.status, 200);
    const info = await h.grants.introspectAccessToken({ accessToken: String(res.body.access_token) });
    assert.equal(info.active, true);
    assert.equal(info.tenantId, 'tenant-int');
    assert.equal(info.credentialsId, 'int-cred');
  });

  it('walks a CIBA request: link_sent, slow_down, link_opened, tokens once, then invalid_grant', async () => {
    const { authReqId } = await h.grants.startBackchannel(cibaRequest(0));
    const poll = () => h.post(cibaPoll(authReqId));
    assert.deepEqual((await poll()).body, { error: 'authorization_pending', status: 'link_sent' });
    assert.equal((await poll()).body.error, 'slow_down');
    await h.grants.markBackchannelOpened({ authReqId });
    await sleep(1050);
    assert.deepEqual((await poll()).body, { error: 'authorization_pending', status: 'link_opened' });
    await h.grants.completeBackchannel({ authReqId, claims: sampleClaims() });
    const done = await poll();
    assert.equal(done.status, 200);
    assert.equal(typeof done.body.id_token, 'string');
    assert.equal((await poll()).body.error, 'invalid_grant');
  });

  it('answers access_denied after a denial and expired_token after expires_in', async () => {
    const start = (expiresIn: number) => h.grants.startBackchannel(cibaRequest(expiresIn));
    const poll = (authReqId: string) => h.post(cibaPoll(authReqId));
    const denied = await start(60);
    await h.grants.denyBackchannel({ authReqId: denied.authReqId, reason: 'rejected' });
    assert.equal((await poll(denied.authReqId)).body.error, 'access_denied');
    const expiring = await start(1);
    await sleep(1100);
    assert.equal((await poll(expiring.authReqId)).body.error, 'expired_token');
  });
});
