import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { events, topics } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { startedForSuite } from '@sesame/testing/suite';
import {
  type TokenHarness,
  basic,
  clientCredentialsForm,
  startTokenHarness,
} from '../../../testing/token-harness';

describe('client_credentials grant', () => {
  const h = startedForSuite(startTokenHarness);
  beforeAll(() => {
    h.directory.addApiCredentials('cred-1', 'api-secret-1', 'tenant-7');
    h.directory.addClient({ clientId: 'app-client', secret: 'app-secret' });
  });

  it('issues an opaque bearer token for svc_admin_api: access_token only, no id_token', async () => {
    const res = await h.post(clientCredentialsForm('cred-1', 'api-secret-1'));
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.scope, 'svc_admin_api');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('pragma'), 'no-cache');
  });

  it('binds the token to tenant and credentials (IntrospectAccessToken)', async () => {
    const res = await h.post(
      { grant_type: 'client_credentials', scope: 'svc_admin_api' },
      { authorization: basic('cred-1', 'api-secret-1') },
    );
    assert.equal(res.status, 200);
    const info = await h.grants.introspectAccessToken({ accessToken: String(res.body.access_token) });
    assert.deepEqual(
      { ...info, expiresAt: info.expiresAt - Math.floor(h.clock.now() / 1000) },
      {
        active: true,
        tenantId: 'tenant-7',
        clientId: 'cred-1',
        credentialsId: 'cred-1',
        scope: 'svc_admin_api',
        expiresAt: 3600,
        sub: '',
        kind: 'api',
        appId: '',
        login: undefined,
      },
    );
  });

  it('refuses any other scope: 400 invalid_scope', async () => {
    for (const scope of ['openid', 'svc_admin_api openid', undefined]) {
      const form: Record<string, string> = {
        grant_type: 'client_credentials',
        client_id: 'cred-1',
        client_secret: 'api-secret-1',
      };
      if (scope) form.scope = scope;
      const res = await h.post(form);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        error: 'invalid_scope',
        error_description: 'scope must be svc_admin_api',
      });
    }
  });

  it('refuses a wrong secret: 401 invalid_client with WWW-Authenticate', async () => {
    const res = await h.post(clientCredentialsForm('cred-1', 'x'));
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
    assert.equal(res.headers.get('www-authenticate'), 'Basic realm="sesame"');
  });

  it('refuses a request without a secret: 401 invalid_client', async () => {
    const res = await h.post({
      grant_type: 'client_credentials',
      client_id: 'cred-1',
      scope: 'svc_admin_api',
    });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
  });

  it('refuses an application client (not API credentials): 401 invalid_client', async () => {
    const res = await h.post(clientCredentialsForm('app-client', 'app-secret'));
    assert.equal(res.status, 401);
  });

  it('refuses a malformed Basic header: 401 invalid_client', async () => {
    const res = await h.post(
      { grant_type: 'client_credentials', scope: 'svc_admin_api' },
      { authorization: 'Basic !!!' },
    );
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
  });

  /** What mgmt publishes on every admin change; token empties its Directory cache on each. */
  const adminEvent = (harness: TokenHarness, activityType: string) =>
    harness.bus.publisher.publish(topics.adminEvents, [
      {
        key: 'tenant-1',
        value: events.AdminEvent.encode(events.AdminEvent.fromPartial({ activityType })).finish(),
      },
    ]);

  it('a revoked API credential stops authenticating on every pod once the admin event arrives, not after the cache TTL', async () => {
    h.directory.addApiCredentials('cred-revoked', 'revoked-secret');
    const form = clientCredentialsForm('cred-revoked', 'revoked-secret');
    assert.equal((await h.post(form)).status, 200);
    assert.equal((await h.post(form)).status, 200, 'served from the Directory cache');
    h.directory.removeApiCredentials('cred-revoked');
    await adminEvent(h, 'api_credentials_revoked');
    const after = await eventually(
      () => h.post(form),
      (a) => a.status !== 200,
      2000,
    );
    assert.equal(after.status, 401);
    assert.equal(after.body.error, 'invalid_client');
  });

  it('a removed application stops authenticating once the admin event arrives, not after the cache TTL', async () => {
    h.directory.addClient({ clientId: 'app-removed', secret: 'removed-secret' });
    const form = { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: 'unknown' };
    const auth = { authorization: basic('app-removed', 'removed-secret') };
    assert.equal((await h.post(form, auth)).body.error, 'invalid_grant');
    h.directory.removeClient('app-removed');
    await adminEvent(h, 'application_removed');
    const after = await eventually(
      () => h.post(form, auth),
      (a) => a.status !== 400,
      2000,
    );
    assert.equal(after.status, 401);
    assert.equal(after.body.error, 'invalid_client');
  });
});

describe('failed client authentications at /token', () => {
  const h = startedForSuite(() =>
    startTokenHarness({
      env: { SESAME_AUTH_FAILURES_PER_CLIENT_IP: '3', SESAME_AUTH_FAILURE_WINDOW_S: '60' },
    }),
  );
  beforeAll(() => {
    h.directory.addApiCredentials('cred-t', 'right-secret', 'tenant-7');
    h.directory.addClient({ clientId: 'app-t', secret: 'app-secret' });
  });
  const form = (secret: string) => ({
    grant_type: 'client_credentials',
    client_id: 'cred-t',
    client_secret: secret,
    scope: 'svc_admin_api',
  });

  it('answer 429 temporarily_unavailable with Retry-After once a caller used them up, even with the right secret', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await h.post(form(`guess-${i}`))).status, 401);
    const asked = h.directory.apiCredentialCalls;
    const refused = await h.post(form('right-secret'));
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'temporarily_unavailable');
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal(refused.headers.get('cache-control'), 'no-store');
    assert.equal(h.directory.apiCredentialCalls, asked, 'refused before the Directory is asked');
  });

  it('do not lock the client out for callers elsewhere (X-Forwarded-For from the trusted proxy)', async () => {
    const res = await h.post(form('right-secret'), { 'x-forwarded-for': '203.0.113.9' });
    assert.equal(res.status, 200);
  });

  it('count for application clients too, and end with the window', async () => {
    const code = { grant_type: 'authorization_code', code: 'nope', redirect_uri: 'https://rp.test/cb' };
    for (let i = 0; i < 3; i++)
      assert.equal((await h.post({ ...code, client_id: 'app-t', client_secret: 'bad' })).status, 401);
    assert.equal((await h.post({ ...code, client_id: 'app-t', client_secret: 'bad' })).status, 429);
    h.clock.advance(60_000);
    assert.equal((await h.post(form('right-secret'))).status, 200);
    const afterWindow = await h.post({ ...code, client_id: 'app-t', client_secret: 'app-secret' });
    assert.equal(afterWindow.body.error, 'invalid_grant');
  });
});
