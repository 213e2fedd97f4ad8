import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { rpCalls } from '../../../testing/rp-client';
import { sampleClaims } from '../../../testing/sample-claims';
import { assertTokenMembers } from '../../../testing/token-answer';
import { TEST_ISSUER, startTokenHarness } from '../../../testing/token-harness';

const conf = { clientId: 'rt-conf', secret: 'rt-secret' };
const other = { clientId: 'rt-other', secret: 'other-secret' };
const pub = { clientId: 'rt-pub' };
const noRefresh = { clientId: 'rt-off', secret: 'off-secret' };
const lifetimes = { enabled: true, absoluteLifetimeS: 3 * 3600, idleLifetimeS: 3600 };

describe('refresh_token grant', () => {
  const h = startedForSuite(startTokenHarness);
  const rp = rpCalls(h);
  const isActive = async (token: unknown) =>
    (await h.grants.introspectAccessToken({ accessToken: String(token) })).active;
  beforeAll(() => {
    h.directory.addClient({ ...conf, appId: 'app-rt-conf', refreshTokens: lifetimes });
    h.directory.addClient({ ...other, appId: 'app-rt-other', refreshTokens: lifetimes });
    h.directory.addClient({ ...pub, appId: 'app-rt-pub', refreshTokens: lifetimes });
    h.directory.addClient({ ...noRefresh, appId: 'app-rt-off' });
  });

  it('a code with offline_access, for an app allowing refresh tokens, answers a refresh token and grants offline_access', async () => {
    const res = await rp.signIn(conf);
    assert.equal(res.status, 200);
    assert.equal(res.body.scope, 'openid email phone offline_access');
    assert.equal(typeof res.body.refresh_token, 'string');
    assert.ok(Buffer.from(String(res.body.refresh_token), 'base64url').length >= 32);
  });

  it('an app not allowing refresh tokens gets none, and offline_access is not granted', async () => {
    const res = await rp.signIn(noRefresh);
    assert.equal(res.status, 200);
    assert.equal(res.body.scope, 'openid email phone');
    assert.equal('refresh_token' in res.body, false);
  });

  it('without offline_access no refresh token is issued', async () => {
    const res = await rp.signIn(conf, { scope: 'openid email' });
    assert.equal(res.body.scope, 'openid email');
    assert.equal('refresh_token' in res.body, false);
  });

  it('a refresh answers new tokens and rotates: the ID token keeps sub and auth_time, drops nonce, new iat', async () => {
    const first = await rp.signIn(conf);
    h.clock.advance(5_000);
    const res = await rp.refresh(conf, first.body.refresh_token);
    assertTokenMembers(res, [
      'access_token',
      'expires_in',
      'id_token',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.notEqual(res.body.refresh_token, first.body.refresh_token);
    assert.notEqual(res.body.access_token, first.body.access_token);
    assert.equal(res.body.scope, 'openid email phone offline_access');
    const { payload } = await jwtVerify(String(res.body.id_token), createLocalJWKSet(await h.keys.jwks()), {
      issuer: TEST_ISSUER,
      audience: conf.clientId,
      currentDate: new Date(h.clock.now()),
    });
    assert.equal(payload.sub, sampleClaims().sub);
    assert.equal(payload.auth_time, sampleClaims().authTime);
    assert.equal(payload.nonce, undefined);
    assert.equal(payload.iat, Math.floor(h.clock.now() / 1000));
    assert.equal(await isActive(res.body.access_token), true);
  });

  it('a public client refreshes with its client_id alone (its tokens rotate)', async () => {
    const first = await rp.signIn(pub);
    assert.equal(first.status, 200);
    const res = await rp.refresh(pub, first.body.refresh_token);
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.refresh_token, 'string');
  });

  it('hostile: another client presenting the token gets invalid_grant, and the token still works for its owner', async () => {
    const first = await rp.signIn(conf);
    const stolen = await rp.refresh(other, first.body.refresh_token);
    assert.equal(stolen.status, 400);
    assert.equal(stolen.body.error, 'invalid_grant');
    const own = await rp.refresh(conf, first.body.refresh_token);
    assert.equal(own.status, 200);
  });

  it('hostile: a wrong client secret is invalid_client 401 and uses nothing up', async () => {
    const first = await rp.signIn(conf);
    const res = await rp.refresh({ clientId: conf.clientId, secret: 'wrong' }, first.body.refresh_token);
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
    assert.equal((await rp.refresh(conf, first.body.refresh_token)).status, 200);
  });

  it('hostile: a replayed refresh token revokes the family: the rotated token and its access token stop working', async () => {
    const first = await rp.signIn(conf);
    const second = await rp.refresh(conf, first.body.refresh_token);
    assert.equal(second.status, 200);
    const replay = await rp.refresh(conf, first.body.refresh_token);
    assert.equal(replay.status, 400);
    assert.equal(replay.body.error, 'invalid_grant');
    assert.equal(replay.body.error_description, 'refresh token was already used');
    const rotated = await rp.refresh(conf, second.body.refresh_token);
    assert.equal(rotated.status, 400);
    assert.equal(rotated.body.error, 'invalid_grant');
    assert.equal(await isActive(second.body.access_token), false);
    assert.equal(await isActive(first.body.access_token), false);
  });

  it('hostile: garbage or missing refresh_token', async () => {
    const garbage = await rp.refresh(conf, 'not-a-token');
    assert.equal(garbage.status, 400);
    assert.equal(garbage.body.error, 'invalid_grant');
    const missing = await h.post({
      grant_type: 'refresh_token',
      client_id: conf.clientId,
      client_secret: conf.secret,
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'invalid_request');
    assert.equal(missing.body.error_description, 'refresh_token is required');
  });

  it('a narrower scope is granted; a wider one is invalid_scope and uses nothing up', async () => {
    const first = await rp.signIn(conf);
    const wider = await rp.refresh(conf, first.body.refresh_token, {
      scope: 'openid email svc_network_info',
    });
    assert.equal(wider.status, 400);
    assert.equal(wider.body.error, 'invalid_scope');
    const narrower = await rp.refresh(conf, first.body.refresh_token, { scope: 'openid email' });
    assert.equal(narrower.status, 200);
    assert.equal(narrower.body.scope, 'openid email');
    const info = await rp.userinfo(`Bearer ${narrower.body.access_token}`);
    assert.deepEqual(info.body, { sub: sampleClaims().sub, email: 'j@example.com', email_verified: true });
  });

  it('the idle lifetime ends a family not used within it; each use starts it again', async () => {
    const first = await rp.signIn(conf);
    h.clock.advance(3500_000);
    const used = await rp.refresh(conf, first.body.refresh_token);
    assert.equal(used.status, 200, 'used within the idle hour');
    h.clock.advance(3601_000);
    const idle = await rp.refresh(conf, used.body.refresh_token);
    assert.equal(idle.status, 400);
    assert.equal(idle.body.error, 'invalid_grant');
  });

  it('the absolute lifetime ends a family however often it is used', async () => {
    let token = (await rp.signIn(conf)).body.refresh_token;
    for (let i = 0; i < 3; i++) {
      h.clock.advance(3000_000);
      const res = await rp.refresh(conf, token);
      assert.equal(res.status, 200, `use ${i + 1} within 3 h`);
      token = res.body.refresh_token;
    }
    h.clock.advance(1900_000);
    const late = await rp.refresh(conf, token);
    assert.equal(late.status, 400);
    assert.equal(late.body.error, 'invalid_grant');
  });

  it('hostile: refresh after DELETE users (Grants.RevokeUserGrants) is invalid_grant; a later sign-in refreshes', async () => {
    const before = await rp.signIn(conf);
    await h.grants.revokeUserGrants({
      tenantId: 'tenant-1',
      userId: sampleClaims().sub,
      appId: '',
      deviceId: '',
    });
    const res = await rp.refresh(conf, before.body.refresh_token);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
    h.clock.advance(1);
    const after = await rp.signIn(conf);
    assert.equal((await rp.refresh(conf, after.body.refresh_token)).status, 200);
  });

  it('a person disabled in the tenant (mgmt then sends RevokeUserGrants for the tenant): refresh and access tokens of every app fail at once', async () => {
    const sub = 'user-disabled';
    const claims = sampleClaims({ sub });
    const ofConf = await rp.signIn(conf, { claims });
    const ofOther = await rp.signIn(other, { claims });
    assert.equal(await isActive(ofConf.body.access_token), true);
    await h.grants.revokeUserGrants({ tenantId: 'tenant-1', userId: sub, appId: '', deviceId: '' });
    for (const [client, signedIn] of [
      [conf, ofConf],
      [other, ofOther],
    ] as const) {
      const res = await rp.refresh(client, signedIn.body.refresh_token);
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'invalid_grant');
      assert.equal(await isActive(signedIn.body.access_token), false, 'the access token stops at once');
    }
  });

  it("removal from one app ends that app's families only", async () => {
    const sub = 'user-app-scope';
    const claims = sampleClaims({ sub });
    const ofConf = await rp.signIn(conf, { claims });
    const ofOther = await rp.signIn(other, { claims });
    await h.grants.revokeUserGrants({
      tenantId: 'tenant-1',
      userId: sub,
      appId: 'app-rt-conf',
      deviceId: '',
    });
    assert.equal((await rp.refresh(conf, ofConf.body.refresh_token)).body.error, 'invalid_grant');
    assert.equal((await rp.refresh(other, ofOther.body.refresh_token)).status, 200);
  });

  it('a device block ends the families of sign-ins made on that device only', async () => {
    const sub = 'user-device-scope';
    const claims = sampleClaims({ sub });
    const login = (deviceId: string) => ({ flowId: 'f', authenticatorId: '', deviceId, loginAt: 1 });
    const onBlocked = await rp.signIn(conf, { claims, login: login('phone-a') });
    const onOther = await rp.signIn(conf, { claims, login: login('phone-b') });
    await h.grants.revokeUserGrants({ tenantId: 'tenant-1', userId: sub, appId: '', deviceId: 'phone-a' });
    assert.equal((await rp.refresh(conf, onBlocked.body.refresh_token)).body.error, 'invalid_grant');
    assert.equal((await rp.refresh(conf, onOther.body.refresh_token)).status, 200);
  });

  it('RevokeUserGrants without tenant or user is INVALID_ARGUMENT', async () => {
    await assert.rejects(
      h.grants.revokeUserGrants({ tenantId: '', userId: 'u', appId: '', deviceId: '' }),
      (err: { code?: number }) => err.code === 3,
    );
  });

  it('an app that stops allowing refresh tokens: its tokens answer unauthorized_client', async () => {
    const client = { clientId: 'rt-later-off', secret: 's' };
    h.directory.addClient({ ...client, refreshTokens: lifetimes });
    const first = await rp.signIn(client);
    h.directory.addClient({ ...client });
    h.clock.advance(6_000); // past the Directory cache
    const res = await rp.refresh(client, first.body.refresh_token);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'unauthorized_client');
  });

  it('a replayed code revokes the refresh token family it started', async () => {
    const code = await rp.issueCode(conf);
    const redeem = () =>
      h.post({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://rp.example/cb',
        client_id: conf.clientId,
        client_secret: conf.secret,
      });
    const first = await redeem();
    assert.equal((await redeem()).body.error, 'invalid_grant');
    assert.equal((await rp.refresh(conf, first.body.refresh_token)).body.error, 'invalid_grant');
  });
});
