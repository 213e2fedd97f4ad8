import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import type { users } from '@sesame/proto';
import { SoftwareAuthenticator } from '../../passkeys/software-authenticator';
import { assertActions } from '../../testing/events';
import { TestBrowser, flowEventsReader, startAuth } from '../../testing/hosted-test-client';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const origin = 'http://localhost';
const request = (
  extra: Partial<users.CreateInteractiveFlowRequest> = {},
): users.CreateInteractiveFlowRequest => ({
  tenantId: 'tenant-1',
  appId: 'app-1',
  clientId: 'client-1',
  userId: 'user-e',
  purpose: 'device_enrollment',
  redirectUri: 'https://rp.example/cb',
  state: 's-1',
  ...extra,
});

/** The enrollment pages an interactive init URL starts (HTTP, in-memory stores and bus). */
describe('device enrollment pages (interactive init URLs)', () => {
  let auth: Auth;
  let bus: MemoryEventBus;
  /** The flow's events published so far, in order (one flow keeps to one partition). */
  const eventsOf = flowEventsReader(() => bus);
  const newUrl = async (extra: Partial<users.CreateInteractiveFlowRequest> = {}) =>
    new URL((await auth.usersGrpc.createInteractiveFlow(request(extra), undefined as never)).url).pathname;
  /** Opens a URL in a browser: follows the 303 to the enrollment page. */
  const open = async (browser: TestBrowser, path: string) => {
    const opened = await browser.request(path);
    assert.equal(opened.status, 303);
    assert.match(opened.location, /^\/enroll\/flow\/[0-9a-f-]{36}$/);
    const page = await browser.request(opened.location);
    return { flow: opened.location, page, csrf: TestBrowser.csrf(page.body) };
  };

  beforeAll(async () => {
    bus = new MemoryEventBus();
    auth = await startAuth({ bus });
    await auth.users.users.create({ userId: 'user-e', email: 'enroll@example.com', createdAt: 1 });
    await auth.users.devices.save({
      userId: 'user-e',
      deviceId: '00000000-0000-4000-8000-000000000001',
      registeredAt: 1,
      lastSeenAt: 1,
      facts: {
        deviceName: 'Laptop',
        osType: 'Linux',
        osVersion: '6',
        browserType: 'Firefox',
        browserVersion: '132',
      },
    });
  });
  afterAll(() => auth.stop());

  it('shows Create a passkey and Cancel for the user, with the RP origin allowed as a form target', async () => {
    const { page } = await open(auth.browser(), await newUrl());
    assert.equal(page.status, 200);
    assert.match(page.body, /<h1>Add this device<\/h1>/);
    assert.match(page.body, />Create a passkey</);
    assert.match(page.body, />Cancel</);
    assert.match(page.body, /For enroll@example\.com/);
    assert.match(
      page.headers.get('content-security-policy') ?? '',
      /form-action 'self' https:\/\/rp\.example/,
    );
  });

  it('creates a passkey on this device: stored for the user, the device joins theirs, redirect with state; events say enrollment', async () => {
    const browser = auth.browser();
    const { flow, csrf } = await open(browser, await newUrl());
    const options = await browser.request(`${flow}/passkey/create-options`, { json: { csrf } });
    assert.equal(options.status, 200);
    const authenticator = new SoftwareAuthenticator();
    const created = await browser.request(`${flow}/passkey/create`, {
      json: { csrf, response: authenticator.create(JSON.parse(options.body), { origin }) },
    });
    assert.deepEqual(JSON.parse(created.body), { location: 'https://rp.example/cb?state=s-1' });
    const passkey = await auth.passkeys.get(authenticator.credentialId);
    assert.equal(passkey?.userId, 'user-e');
    const devices = await auth.users.devices.listForUser('user-e');
    assert.equal(devices.length, 2);
    assert.ok(devices.some((d) => d.deviceId === passkey?.deviceId));
    const events = eventsOf(flow.split('/').at(-1)!);
    assertActions(events, [
      'enroll_start_native',
      'new_device_registered',
      'desktop_biometrics_registered',
      'enroll_native_complete',
    ]);
    assert.ok(
      events.every((e) => e.flowType === 'enrollment' && e.userId === 'user-e' && e.appId === 'app-1'),
    );
    assert.equal(events.at(-1)?.status, 'success');
    // Finished: the enrollment is gone, a second creation finds nothing.
    assert.equal((await browser.request(flow)).status, 410);
  });

  it('a used URL shows a clear page (410), in English, German and French', async () => {
    const url = await newUrl();
    await open(auth.browser(), url);
    for (const [lang, title] of [
      ['en', 'Link no longer valid'],
      ['de', 'Link nicht mehr gültig'],
      ['fr', 'Lien plus valide'],
    ] as const) {
      const browser = auth.browser();
      browser.headers['accept-language'] = lang;
      const again = await browser.request(url);
      assert.equal(again.status, 410);
      assert.match(again.body, new RegExp(`<h1>${title}</h1>`));
      assert.match(again.body, new RegExp(`<html lang="${lang}"`));
    }
  });

  it('an unknown or malformed URL shows the same page', async () => {
    for (const path of [`/enroll/${'a'.repeat(43)}`, '/enroll/short', '/enroll/flow/not-a-flow']) {
      const res = await auth.browser().request(path);
      assert.equal(res.status, 410, path);
      assert.match(res.body, /Link no longer valid/);
    }
  });

  it('Cancel ends the enrollment at the RP with access_denied and state; nothing is created', async () => {
    const browser = auth.browser();
    const { flow, csrf } = await open(browser, await newUrl({ state: 'keep me' }));
    const cancelled = await browser.request(`${flow}/cancel`, { form: { csrf } });
    assert.equal(cancelled.status, 303);
    const target = new URL(cancelled.location);
    assert.equal(target.origin + target.pathname, 'https://rp.example/cb');
    assert.equal(target.searchParams.get('error'), 'access_denied');
    assert.equal(target.searchParams.get('state'), 'keep me');
    const events = eventsOf(flow.split('/').at(-1)!);
    assert.deepEqual([events.at(-1)?.action, events.at(-1)?.status], ['enroll_native_complete', 'failure']);
    assert.equal((await browser.request(flow)).status, 410);
  });

  it('only the browser that opened the URL drives the enrollment, and every POST needs its CSRF token', async () => {
    const browser = auth.browser();
    const { flow, csrf } = await open(browser, await newUrl());
    const stranger = auth.browser();
    assert.equal((await stranger.request(flow)).status, 403);
    assert.equal((await stranger.request(`${flow}/passkey/create-options`, { json: { csrf } })).status, 403);
    assert.equal((await browser.request(`${flow}/passkey/create-options`, { json: {} })).status, 403);
    assert.equal((await browser.request(`${flow}/cancel`, { form: { csrf: 'wrong' } })).status, 403);
    assert.equal((await browser.request(flow)).status, 200, 'still open for its own browser');
  });

  it('refuses a forged or replayed passkey response; without state the redirect carries none', async () => {
    const browser = auth.browser();
    const { flow, csrf } = await open(browser, await newUrl({ state: '' }));
    const bad = await browser.request(`${flow}/passkey/create`, {
      json: { csrf, response: { id: 'x', response: {} } },
    });
    assert.equal(bad.status, 400);
    const options = await browser.request(`${flow}/passkey/create-options`, { json: { csrf } });
    const response = new SoftwareAuthenticator().create(JSON.parse(options.body), { origin });
    const created = await browser.request(`${flow}/passkey/create`, { json: { csrf, response } });
    assert.deepEqual(JSON.parse(created.body), { location: 'https://rp.example/cb' });
    const replay = await browser.request(`${flow}/passkey/create`, { json: { csrf, response } });
    assert.equal(replay.status, 410);
  });

  it('an enrollment is no sign-in: its id means nothing to the sign-in pages', async () => {
    const browser = auth.browser();
    const { flow } = await open(browser, await newUrl());
    const id = flow.split('/').at(-1);
    assert.equal((await browser.request(`/flow/${id}/continue`)).status, 410);
  });
});

describe('device enrollment URLs expire', () => {
  it('after SESAME_ENROLLMENT_LINK_TTL_S: a clear page, and no enrollment starts', async () => {
    const auth = await startAuth({ env: { SESAME_ENROLLMENT_LINK_TTL_S: '1' } });
    try {
      await auth.users.users.create({ userId: 'user-e', createdAt: 1 });
      const { url } = await auth.usersGrpc.createInteractiveFlow(request(), undefined as never);
      await new Promise((r) => setTimeout(r, 1100));
      const res = await auth.browser().request(new URL(url).pathname);
      assert.equal(res.status, 410);
      assert.match(res.body, /This link to add a device has expired or was already used/);
    } finally {
      await auth.stop();
    }
  });
});
