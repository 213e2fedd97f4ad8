import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { TestBrowser, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

/** Issue 26: the enrollment's redirect to the RP carries the state, so no cache may keep it. */
describe('the enrollment’s redirect to the RP', () => {
  const auth = startedForSuite(startAuth);
  beforeAll(async () => {
    await auth.users.users.create({ userId: 'user-n', email: 'nostore@example.com', createdAt: 1 });
  });

  it('Cancel answers its 303 with Cache-Control no-store', async () => {
    const { url } = await auth.usersGrpc.createInteractiveFlow(
      {
        tenantId: 'tenant-1',
        appId: 'app-1',
        clientId: 'client-1',
        userId: 'user-n',
        purpose: 'device_enrollment',
        redirectUri: 'https://rp.example/cb',
        state: 's-n',
      },
      undefined as never,
    );
    const browser = auth.browser();
    const opened = await browser.request(new URL(url).pathname);
    const page = await browser.request(opened.location);
    const cancelled = await browser.request(`${opened.location}/cancel`, {
      form: { csrf: TestBrowser.csrf(page.body) },
    });
    assert.equal(cancelled.status, 303);
    assert.match(cancelled.location, /^https:\/\/rp\.example\/cb\?.*state=s-n/);
    assert.equal(cancelled.headers.get('cache-control'), 'no-store');
  });
});
