import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { RedisKeyValueStore } from '@sesame/kv';
import { sha256 } from '@sesame/platform';
import { realServers } from '@sesame/testing';
import { decodeJwt } from 'jose';
import { rpCalls } from './testing/rp-client';
import { sampleClaims } from './testing/sample-claims';
import { type TokenHarness, startTokenHarness } from './testing/token-harness';

const conf = { clientId: 'int-rt', secret: 'int-rt-secret' };
const other = { clientId: 'int-rt-other', secret: 'int-rt-other-secret' };

describe('refresh tokens, revocation, introspection and userinfo against real Redis', () => {
  const { redisUrl } = realServers();
  let h: TokenHarness;
  let rp: ReturnType<typeof rpCalls>;
  let redis: RedisKeyValueStore;
  beforeAll(async () => {
    h = await startTokenHarness({ redisUrl });
    rp = rpCalls(h);
    redis = RedisKeyValueStore.connect(redisUrl, 'sesame:token:');
    const refreshTokens = { enabled: true, absoluteLifetimeS: 7200, idleLifetimeS: 600 };
    h.directory.addClient({ ...conf, refreshTokens });
    h.directory.addClient({ ...other, refreshTokens });
  });
  afterAll(async () => {
    await redis.close();
    await h.stop();
  });

  it('stores the refresh token hashed under sesame:token:refresh:<sha256>, its family with the absolute TTL', async () => {
    const res = await rp.signIn(conf);
    assert.equal(res.status, 200);
    const token = String(res.body.refresh_token);
    assert.equal(await redis.get(`refresh:${token}`), null);
    const record = await redis.get(`refresh:${sha256(token)}`);
    assert.ok(record);
    const { familyId } = JSON.parse(record) as { familyId: string };
    const ttl = await redis.ttlMs(`refresh-family:${familyId}`);
    assert.ok(ttl !== null && ttl > 7190_000 && ttl <= 7200_000, `ttl ${ttl}`);
  });

  it('rotates on /token; a replay revokes the family in Redis (rotated token and access token dead)', async () => {
    const first = await rp.signIn(conf);
    const second = await rp.refresh(conf, first.body.refresh_token);
    assert.equal(second.status, 200);
    const replay = await rp.refresh(conf, first.body.refresh_token);
    assert.equal(replay.body.error, 'invalid_grant');
    assert.equal((await rp.refresh(conf, second.body.refresh_token)).body.error, 'invalid_grant');
    assert.equal(await redis.get(`access:${sha256(String(second.body.access_token))}`), null);
  });

  it("another client's refresh token is invalid_grant and stays usable for its owner", async () => {
    const first = await rp.signIn(conf);
    assert.equal((await rp.refresh(other, first.body.refresh_token)).body.error, 'invalid_grant');
    assert.equal((await rp.refresh(conf, first.body.refresh_token)).status, 200);
  });

  it('concurrent uses of one refresh token: at most one succeeds, and the family ends', async () => {
    const first = await rp.signIn(conf);
    const answers = await Promise.all([1, 2, 3].map(() => rp.refresh(conf, first.body.refresh_token)));
    const ok = answers.filter((a) => a.status === 200);
    assert.ok(ok.length <= 1, `${ok.length} succeeded`);
    assert.equal(answers.filter((a) => a.body.error === 'invalid_grant').length, answers.length - ok.length);
    for (const a of ok)
      assert.equal((await rp.refresh(conf, a.body.refresh_token)).body.error, 'invalid_grant');
  });

  it('refresh after RevokeUserGrants (DELETE users) is invalid_grant', async () => {
    const sub = `int-user-${Date.now()}`;
    const first = await rp.signIn(conf, { claims: sampleClaims({ sub }) });
    await h.grants.revokeUserGrants({ tenantId: 'tenant-1', userId: sub, appId: '', deviceId: '' });
    assert.equal((await rp.refresh(conf, first.body.refresh_token)).body.error, 'invalid_grant');
  });

  it('introspection, userinfo and revocation answer from Redis', async () => {
    const { body } = await rp.signIn(conf);
    assert.equal((await rp.introspect(conf, body.refresh_token)).body.active, true);
    assert.deepEqual((await rp.introspect(other, body.access_token)).body, { active: false });
    assert.equal((await rp.userinfo(`Bearer ${body.access_token}`)).body.email, 'j@example.com');
    await rp.revoke(conf, body.refresh_token);
    assert.deepEqual((await rp.introspect(conf, body.refresh_token)).body, { active: false });
    assert.equal((await rp.userinfo(`Bearer ${body.access_token}`)).status, 401);
  });

  it('the claims parameter’s standard claims live with the code and the family in Redis: a refresh answers them', async () => {
    const first = await rp.signIn(conf, {
      scope: 'openid offline_access',
      requestedClaims: { idToken: ['email'], userinfo: ['phone_number', 'email'] },
      requestedClaimValues: { userinfo: { email: ['J@example.com'] } },
    });
    assert.equal(decodeJwt(String(first.body.id_token)).email, 'j@example.com');
    const refreshed = await rp.refresh(conf, first.body.refresh_token);
    const idToken = decodeJwt(String(refreshed.body.id_token));
    assert.equal(idToken.email, 'j@example.com');
    assert.equal(idToken.phone_number, undefined);
    assert.deepEqual((await rp.userinfo(`Bearer ${refreshed.body.access_token}`)).body, {
      sub: idToken.sub,
      email: 'j@example.com',
      phone_number: '+15555550100',
    });
  });
});
