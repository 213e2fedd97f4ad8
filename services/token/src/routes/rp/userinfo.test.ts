import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { rpCalls } from '../../testing/rp-client';
import { sampleClaims } from '../../testing/sample-claims';
import { basic, startTokenHarness } from '../../testing/token-harness';

const conf = { clientId: 'ui-conf', secret: 'ui-secret' };
const INVALID = /^Bearer realm="sesame", error="invalid_token", error_description="[^"]+"$/;

describe('GET/POST /userinfo (OIDC Core 5.3, RFC 6750)', () => {
  const h = startedForSuite(startTokenHarness);
  const rp = rpCalls(h);
  /** POST /userinfo with a form body (RFC 6750 §2.2) and any extra headers. */
  const postForm = async (form: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await fetch(`${h.url}/userinfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  beforeAll(() => {
    h.directory.addClient({
      ...conf,
      refreshTokens: { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 },
    });
    h.directory.addApiCredentials('ui-api', 'api-secret');
  });

  it('answers sub and the claims of the granted scopes, by GET and by POST', async () => {
    const { body } = await rp.signIn(conf);
    for (const method of ['GET', 'POST'] as const) {
      const res = await rp.userinfo(`Bearer ${body.access_token}`, method);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(res.body, {
        sub: sampleClaims().sub,
        email: 'j@example.com',
        email_verified: true,
        phone_number: '+15555550100',
        phone_number_verified: false,
      });
    }
  });

  it('scope openid (or openid profile) alone answers sub only: no claim is invented', async () => {
    for (const scope of ['openid', 'openid profile']) {
      const { body } = await rp.signIn(conf, { scope });
      assert.deepEqual((await rp.userinfo(`Bearer ${body.access_token}`)).body, { sub: sampleClaims().sub });
    }
  });

  it('a refreshed access token answers the same claims', async () => {
    const { body } = await rp.signIn(conf);
    const refreshed = await rp.refresh(conf, body.refresh_token);
    const res = await rp.userinfo(`Bearer ${refreshed.body.access_token}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.email, 'j@example.com');
  });

  it('hostile: no credentials at all is 401 with a bare Bearer challenge and a body without an error code (RFC 6750 §3.1)', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await rp.userinfo(undefined, method);
      assert.equal(res.status, 401, method);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="sesame"');
      assert.equal('error' in res.body, false, JSON.stringify(res.body));
    }
  });

  it('takes the token in a POST form body (RFC 6750 §2.2, access_token=…) as from the header', async () => {
    const { body } = await rp.signIn(conf);
    const res = await postForm({ access_token: String(body.access_token) });
    assert.equal(res.status, 200);
    assert.equal(res.body.sub, sampleClaims().sub);
    assert.equal(res.body.email, 'j@example.com');
    const revoked = (await rp.signIn(conf)).body.access_token;
    await rp.revoke(conf, revoked);
    const refused = await postForm({ access_token: String(revoked) });
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate') ?? '', INVALID);
  });

  it('hostile: a token in the header and in the form body is 400 invalid_request (one method only, RFC 6750 §2)', async () => {
    const { body } = await rp.signIn(conf);
    const token = String(body.access_token);
    const res = await postForm({ access_token: token }, { authorization: `Bearer ${token}` });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
    assert.match(
      res.headers.get('www-authenticate') ?? '',
      /^Bearer realm="sesame", error="invalid_request"/,
    );
    const twice = await fetch(`${h.url}/userinfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `access_token=${token}&access_token=${token}`,
    });
    assert.equal(twice.status, 400);
    assert.equal(((await twice.json()) as { error: string }).error, 'invalid_request');
  });

  it('hostile: a body token is not taken from a GET, from another content type, or from the query', async () => {
    const { body } = await rp.signIn(conf);
    const token = String(body.access_token);
    const json = await fetch(`${h.url}/userinfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: token }),
    });
    assert.equal(json.status, 401);
    assert.equal(json.headers.get('www-authenticate'), 'Bearer realm="sesame"');
    const multipart = new FormData();
    multipart.set('access_token', token);
    const parts = await fetch(`${h.url}/userinfo`, { method: 'POST', body: multipart });
    assert.equal(parts.status, 401);
    const get = await fetch(`${h.url}/userinfo?${new URLSearchParams({ access_token: token })}`);
    assert.equal(get.status, 400, 'a token in the URL is refused, not used');
    assert.equal(((await get.json()) as { error: string }).error, 'invalid_request');
  });

  it('hostile: a garbage, Basic, revoked or expired token is 401 invalid_token in WWW-Authenticate', async () => {
    const revoked = (await rp.signIn(conf)).body.access_token;
    await rp.revoke(conf, revoked);
    const expiring = (await rp.signIn(conf)).body.access_token;
    const cases: Array<[string, () => void]> = [
      ['Bearer garbage', () => undefined],
      [basic('ui-conf', 'ui-secret'), () => undefined],
      [`Bearer ${revoked}`, () => undefined],
      [`Bearer ${expiring}`, () => h.clock.advance(3601_000)],
    ];
    for (const [authorization, before] of cases) {
      before();
      const res = await rp.userinfo(authorization);
      assert.equal(res.status, 401, authorization);
      assert.equal(res.body.error, 'invalid_token');
      assert.match(res.headers.get('www-authenticate') ?? '', INVALID);
    }
  });

  it('hostile: after DELETE users (Grants.RevokeUserGrants) the access tokens of that user are invalid_token everywhere', async () => {
    const sub = 'user-removed-later';
    const { body } = await rp.signIn(conf, { claims: sampleClaims({ sub }) });
    const other = (await rp.signIn(conf)).body.access_token;
    await h.grants.revokeUserGrants({ tenantId: 'tenant-1', userId: sub, appId: '', deviceId: '' });
    const res = await rp.userinfo(`Bearer ${body.access_token}`);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', INVALID);
    assert.deepEqual((await rp.introspect(conf, body.access_token)).body, { active: false });
    assert.equal(
      (await h.grants.introspectAccessToken({ accessToken: String(body.access_token) })).active,
      false,
    );
    assert.equal((await rp.userinfo(`Bearer ${other}`)).status, 200, "another user's token is untouched");
    h.clock.advance(1);
    const later = (await rp.signIn(conf, { claims: sampleClaims({ sub }) })).body.access_token;
    assert.equal(
      (await rp.userinfo(`Bearer ${later}`)).status,
      200,
      'a token issued after the removal works',
    );
  });

  it('hostile: a device block ends the access tokens of logins made on that device only', async () => {
    const sub = 'user-device-blocked';
    const login = (deviceId: string) => ({ flowId: 'f', authenticatorId: '', deviceId, loginAt: 1 });
    const blocked = (await rp.signIn(conf, { claims: sampleClaims({ sub }), login: login('d-1') })).body;
    const kept = (await rp.signIn(conf, { claims: sampleClaims({ sub }), login: login('d-2') })).body;
    await h.grants.revokeUserGrants({ tenantId: 'tenant-1', userId: sub, appId: '', deviceId: 'd-1' });
    assert.equal((await rp.userinfo(`Bearer ${blocked.access_token}`)).status, 401);
    assert.equal((await rp.userinfo(`Bearer ${kept.access_token}`)).status, 200);
  });

  it('hostile: a management token (client_credentials) is invalid_token', async () => {
    const api = await h.post({
      grant_type: 'client_credentials',
      scope: 'svc_admin_api',
      client_id: 'ui-api',
      client_secret: 'api-secret',
    });
    assert.equal(api.status, 200);
    const res = await rp.userinfo(`Bearer ${api.body.access_token}`);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', INVALID);
  });

  it('CORS: any origin may read the answer and its challenge; the preflight allows Authorization', async () => {
    const { body } = await rp.signIn(conf);
    const ok = await fetch(`${h.url}/userinfo`, {
      headers: { authorization: `Bearer ${body.access_token}`, origin: 'https://spa.example' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    const refused = await fetch(`${h.url}/userinfo`, {
      headers: { authorization: 'Bearer garbage', origin: 'https://spa.example' },
    });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
    assert.equal(refused.headers.get('access-control-expose-headers'), 'WWW-Authenticate, DPoP-Nonce');
    const preflight = await fetch(`${h.url}/userinfo`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://spa.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
  });

  it('no CORS header without an Origin (non-browser callers)', async () => {
    const res = await rp.userinfo('Bearer garbage');
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('PUT is 405 with Allow: GET, POST', async () => {
    const res = await fetch(`${h.url}/userinfo`, { method: 'PUT' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, POST');
  });
});
