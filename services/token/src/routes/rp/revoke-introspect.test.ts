import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { rpCalls } from '../../testing/rp-client';
import { sampleClaims } from '../../testing/sample-claims';
import {
  TEST_ISSUER,
  type TokenHarness,
  basic,
  postToken,
  startTokenHarness,
} from '../../testing/token-harness';

const conf = { clientId: 'ri-conf', secret: 'ri-secret' };
const other = { clientId: 'ri-other', secret: 'other-secret' };
const pub = { clientId: 'ri-pub' };
const refreshTokens = { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 };

describe('POST /revoke (RFC 7009) and POST /introspect (RFC 7662)', () => {
  const h = startedForSuite(startTokenHarness);
  const rp = rpCalls(h);
  beforeAll(() => {
    h.directory.addClient({ ...conf, refreshTokens });
    h.directory.addClient({ ...other, refreshTokens });
    h.directory.addClient({ ...pub, refreshTokens });
    h.directory.addClient({ clientId: 'ri-far', secret: 'far-secret', tenantId: 'tenant-2', refreshTokens });
    h.directory.addApiCredentials('ri-api', 'api-secret', 'tenant-1');
    h.directory.addApiCredentials('ri-api-2', 'api-secret-2', 'tenant-2');
  });

  describe('introspection', () => {
    it("describes the caller's own access token", async () => {
      const { body } = await rp.signIn(conf);
      const res = await rp.introspect(conf, body.access_token);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(res.body, {
        active: true,
        scope: 'openid email phone offline_access',
        client_id: conf.clientId,
        token_type: 'Bearer',
        exp: Math.floor(h.clock.now() / 1000) + 3600,
        sub: sampleClaims().sub,
        iss: TEST_ISSUER,
      });
    });

    it("describes the caller's own refresh token (with the hint or without)", async () => {
      const { body } = await rp.signIn(conf);
      for (const extra of [{}, { token_type_hint: 'refresh_token' }, { token_type_hint: 'made_up' }] as Array<
        Record<string, string>
      >) {
        const res = await rp.introspect(conf, body.refresh_token, extra);
        assert.equal(res.body.active, true);
        assert.equal(res.body.client_id, conf.clientId);
        assert.equal(res.body.token_type, 'refresh_token');
        assert.equal(res.body.sub, sampleClaims().sub);
      }
    });

    it("hostile: another client's access or refresh token is active:false, and nothing more", async () => {
      const { body } = await rp.signIn(other);
      for (const token of [body.access_token, body.refresh_token]) {
        const res = await rp.introspect(conf, token);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { active: false });
      }
    });

    it("API credentials introspect any token of their tenant, and no other tenant's", async () => {
      const { body } = await rp.signIn(conf);
      const own = await postToken(
        `${h.url}/introspect`,
        { token: String(body.access_token) },
        { authorization: basic('ri-api', 'api-secret') },
      );
      assert.equal(own.body.active, true);
      assert.equal(own.body.client_id, conf.clientId);
      const far = await postToken(
        `${h.url}/introspect`,
        { token: String(body.access_token) },
        { authorization: basic('ri-api-2', 'api-secret-2') },
      );
      assert.deepEqual(far.body, { active: false });
    });

    it('unknown, rotated and revoked tokens are active:false', async () => {
      const { body } = await rp.signIn(conf);
      const rotated = await rp.refresh(conf, body.refresh_token);
      assert.equal(rotated.status, 200);
      assert.deepEqual((await rp.introspect(conf, body.refresh_token)).body, { active: false });
      assert.deepEqual((await rp.introspect(conf, 'garbage')).body, { active: false });
      await rp.revoke(conf, rotated.body.access_token);
      assert.deepEqual((await rp.introspect(conf, rotated.body.access_token)).body, { active: false });
    });

    it('hostile: a public client (no secret) or a wrong secret is invalid_client 401; no token is required to say so', async () => {
      const { body } = await rp.signIn(conf);
      const publicCall = await rp.introspect(pub, body.access_token);
      assert.equal(publicCall.status, 401);
      assert.equal(publicCall.body.error, 'invalid_client');
      const wrong = await rp.introspect({ clientId: conf.clientId, secret: 'nope' }, body.access_token);
      assert.equal(wrong.status, 401);
      assert.equal(wrong.headers.get('www-authenticate'), 'Basic realm="sesame"');
    });

    it('a missing token is invalid_request; JSON bodies are refused like at /token', async () => {
      const missing = await postToken(`${h.url}/introspect`, {
        client_id: conf.clientId,
        client_secret: conf.secret,
      });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error_description, 'token is required');
      const json = await fetch(`${h.url}/introspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(json.status, 400);
      assert.equal(((await json.json()) as { error: string }).error, 'invalid_request');
    });
  });

  describe('revocation', () => {
    it('revoking an access token ends it (200, empty object), and the refresh token still works', async () => {
      const { body } = await rp.signIn(conf);
      const res = await rp.revoke(conf, body.access_token);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      assert.equal(
        (await h.grants.introspectAccessToken({ accessToken: String(body.access_token) })).active,
        false,
      );
      assert.equal((await rp.refresh(conf, body.refresh_token)).status, 200);
    });

    it('revoking a refresh token ends its family and the access tokens issued from it', async () => {
      const { body } = await rp.signIn(conf);
      assert.equal(
        (await rp.revoke(conf, body.refresh_token, { token_type_hint: 'refresh_token' })).status,
        200,
      );
      const refreshed = await rp.refresh(conf, body.refresh_token);
      assert.equal(refreshed.status, 400);
      assert.equal(refreshed.body.error, 'invalid_grant');
      assert.equal(
        (await h.grants.introspectAccessToken({ accessToken: String(body.access_token) })).active,
        false,
      );
    });

    it("hostile: revoking another client's token answers 200 and changes nothing", async () => {
      const { body } = await rp.signIn(other);
      assert.equal((await rp.revoke(conf, body.access_token)).status, 200);
      assert.equal((await rp.revoke(conf, body.refresh_token)).status, 200);
      assert.equal(
        (await h.grants.introspectAccessToken({ accessToken: String(body.access_token) })).active,
        true,
      );
      assert.equal((await rp.refresh(other, body.refresh_token)).status, 200);
    });

    it('an unknown token answers 200 (RFC 7009 2.2)', async () => {
      assert.equal((await rp.revoke(conf, 'never-issued')).status, 200);
    });

    it('a public client revokes its own refresh token with its client_id alone', async () => {
      const { body } = await rp.signIn(pub);
      assert.equal((await rp.revoke(pub, body.refresh_token)).status, 200);
      assert.equal((await rp.refresh(pub, body.refresh_token)).body.error, 'invalid_grant');
    });

    it('hostile: a wrong secret is invalid_client 401 and revokes nothing', async () => {
      const { body } = await rp.signIn(conf);
      const res = await rp.revoke({ clientId: conf.clientId, secret: 'nope' }, body.refresh_token);
      assert.equal(res.status, 401);
      assert.equal(res.body.error, 'invalid_client');
      assert.equal((await rp.refresh(conf, body.refresh_token)).status, 200);
    });

    it('GET is 405 with Allow: POST', async () => {
      const res = await fetch(`${h.url}/revoke`);
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
    });
  });
});

describe('introspection by API credentials with no Directory cache, under a tight failure throttle', () => {
  let h: TokenHarness;
  beforeAll(async () => {
    h = await startTokenHarness({
      env: { SESAME_DIRECTORY_CACHE_MS: '0', SESAME_AUTH_FAILURES_PER_CLIENT_IP: '3' },
    });
    h.directory.addApiCredentials('ri-api', 'api-secret', 'tenant-1');
  });
  afterAll(() => h.stop());

  it('a successful call asks the Directory twice (app, then API credentials) and counts as no failure', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await postToken(
        `${h.url}/introspect`,
        { token: 'unknown' },
        { authorization: basic('ri-api', 'api-secret') },
      );
      assert.equal(res.status, 200, `call ${i + 1}`);
    }
  });

  it('failed ones count once each: the fourth is 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await postToken(
        `${h.url}/introspect`,
        { token: 'unknown' },
        { authorization: basic('ri-api', 'wrong') },
      );
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  });
});
