import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually } from '@sesame/testing';
import { type Browser, type BrowserContext, desktopContext, launchBrowser } from '@sesame/testing/browser';
import type * as oidc from 'openid-client';
import { sesame } from './admin-cli';
import {
  type ActivityLogRecord,
  authorizationRequest,
  demoActivityLogs,
  rpConfig,
} from './hosted-signin-support';
import { type RealPlatform, startRealPlatform } from './real-platform';

/**
 * The tenant location rule (issue 9) end to end: an admin blocks a country with the CLI (admin API), a Chromium
 * whose address the trusted proxy reports in that country (X-Forwarded-For, as a load balancer in front of
 * auth sets it) is redirected to the RP with risk_access_restriction, state and iss; the management API's
 * activity logs show the attempt as one record with restricted_location, status blocked; unblocking lets the
 * same browser reach the sign-in page. Its own platform: the rule applies to the whole demo tenant.
 */
jest.setTimeout(180_000);

// 8.8.8.8 is in the US in the bundled IP-location database (devices/location.ts); the platform's trusted
// proxies are loopback in SESAME_ENV=test, so X-Forwarded-For from this test's loopback connection counts.
const US_ADDRESS = '8.8.8.8';

describe('the tenant location rule in a real browser', () => {
  let env: RealPlatform;
  let browser: Browser;
  let config: oidc.Configuration;
  let logs: ReturnType<typeof demoActivityLogs>;
  let abroad: BrowserContext;
  const admin = () => ({ url: env.platform.url, adminKey: env.platform.adminKey });

  beforeAll(async () => {
    const since = Date.now();
    // A short Directory cache in auth: the rule's change reaches /authorize within it (the admin event clears
    // it sooner; the test polls either way).
    env = await startRealPlatform('location-rule', { env: { SESAME_DIRECTORY_CACHE_MS: '500' } });
    browser = await launchBrowser();
    config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    logs = demoActivityLogs(env, since);
    abroad = await desktopContext(browser, { extraHTTPHeaders: { 'x-forwarded-for': US_ADDRESS } });
  });
  afterAll(async () => {
    await abroad?.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  /** The browser's GET of an authorization request, without following the redirect (to read it). */
  async function authorize() {
    const req = await authorizationRequest(config, env.demo.redirectUri);
    const res = await abroad.request.get(req.url.href, { maxRedirects: 0 });
    return { req, res };
  }

  it('redirects a browser in a blocked country with risk_access_restriction, logs restricted_location (status blocked), and lets it in once unblocked', async () => {
    const before = await authorize();
    assert.equal(before.res.status(), 200, 'no rule yet: the sign-in page');

    const blocked = await sesame(
      admin(),
      'tenant',
      'block-countries',
      '--tenant',
      env.demo.tenantId,
      '--country',
      'us',
    );
    assert.deepEqual(blocked.blockedCountries, ['US']);

    const { req, res } = await eventually(authorize, (a) => a.res.status() === 302, 10_000, 200);
    const location = new URL(res.headers().location ?? '');
    assert.equal(`${location.origin}${location.pathname}`, env.demo.redirectUri);
    assert.equal(location.searchParams.get('error'), 'risk_access_restriction');
    assert.equal(location.searchParams.get('state'), req.state);
    assert.equal(location.searchParams.get('iss'), env.platform.url);
    assert.equal(location.searchParams.get('code'), null);
    assert.ok(location.searchParams.get('error_description'));

    const records = await eventually(
      async () =>
        (await logs.query()).filter((r: ActivityLogRecord) =>
          r.events.some((e) => e.payload.details.action === 'restricted_location'),
        ),
      (rs) => rs.length >= 1,
      60_000,
      250,
    );
    for (const record of records) {
      assert.equal(record.status, 'blocked');
      assert.equal(record.accessingIp, US_ADDRESS);
      assert.equal(record.accessingDeviceLocation?.country, 'US');
      assert.match(record.failureReason ?? '', /blocked country \(US\)/);
      assert.equal(record.userId, undefined, 'nobody was identified');
    }

    await sesame(admin(), 'tenant', 'unblock-countries', '--tenant', env.demo.tenantId);
    const after = await eventually(authorize, (a) => a.res.status() === 200, 10_000, 200);
    assert.match(await after.res.text(), /Email address/);
  });
});
