import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type Embedded, startEmbedded } from './index';
import { DEMO_BACKCHANNEL_LOGOUT_URI, DEMO_POST_LOGOUT_REDIRECT_URI, seedDemo, seedDemoOnce } from './seed';

/** Issue 36: the demo seed runs on an empty store only, so a restart keeps the demo ids and secrets. */
describe('the demo seed runs on an empty platform only', () => {
  let embedded: Embedded;
  const tenants = async () => {
    const res = await fetch(`${embedded.url}/api/v1/admin/tenants`, {
      headers: { authorization: `Bearer ${embedded.adminKey}` },
    });
    return ((await res.json()) as { tenants: Array<{ tenantId: string; name: string }> }).tenants;
  };
  beforeAll(async () => {
    embedded = await startEmbedded({ port: 0, env: { LOG_LEVEL: 'silent', SESAME_ENV: 'development' } });
  });
  afterAll(() => embedded?.stop());

  it('seeds an empty platform once; asked again it seeds nothing and the first demo tenant stays the only one', async () => {
    assert.deepEqual(await tenants(), []);
    const demo = await seedDemoOnce(embedded.url, embedded.adminKey);
    assert.ok(demo?.clientId);
    assert.equal(await seedDemoOnce(embedded.url, embedded.adminKey), undefined);
    assert.deepEqual(
      (await tenants()).map((t) => t.tenantId),
      [demo!.tenantId],
    );
  });

  const application = async (tenantId: string, appId: string) => {
    const res = await fetch(`${embedded.url}/api/v1/admin/tenants/${tenantId}/applications/${appId}`, {
      headers: { authorization: `Bearer ${embedded.adminKey}` },
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { postLogoutRedirectUris?: string[]; backchannelLogoutUri?: string };
  };

  it('registers the sample app’s Sign out landing page; its back-channel receiver only when asked (npm start)', async () => {
    const plain = await seedDemo(embedded.url, embedded.adminKey);
    const app = await application(plain.tenantId, plain.appId);
    assert.deepEqual(app.postLogoutRedirectUris, [DEMO_POST_LOGOUT_REDIRECT_URI]);
    assert.equal(app.backchannelLogoutUri, undefined);
    const asked = await seedDemo(embedded.url, embedded.adminKey, { backchannelLogout: true });
    assert.equal(
      (await application(asked.tenantId, asked.appId)).backchannelLogoutUri,
      DEMO_BACKCHANNEL_LOGOUT_URI,
    );
  });
});

/** Issue 39: `npm start` asks for the sample app's back-channel receiver; only where mgmt takes a loopback one. */
describe('the demo app’s back-channel logout URI (demoBackchannelLogout)', () => {
  const backchannelOf = async (env: Record<string, string>) => {
    const embedded = await startEmbedded({ port: 0, env, seedDemo: true, demoBackchannelLogout: true });
    try {
      const { tenantId, appId } = embedded.demo!;
      const res = await fetch(`${embedded.url}/api/v1/admin/tenants/${tenantId}/applications/${appId}`, {
        headers: { authorization: `Bearer ${embedded.adminKey}` },
      });
      return ((await res.json()) as { backchannelLogoutUri?: string }).backchannelLogoutUri;
    } finally {
      await embedded.stop();
    }
  };

  it('development: registered; test without SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: left out, and the start still succeeds', async () => {
    assert.equal(
      await backchannelOf({ LOG_LEVEL: 'silent', SESAME_ENV: 'development' }),
      DEMO_BACKCHANNEL_LOGOUT_URI,
    );
    assert.equal(await backchannelOf({ LOG_LEVEL: 'silent', SESAME_ENV: 'test' }), undefined);
    assert.equal(
      await backchannelOf({
        LOG_LEVEL: 'silent',
        SESAME_ENV: 'test',
        SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: 'true',
      }),
      DEMO_BACKCHANNEL_LOGOUT_URI,
    );
  });
});
