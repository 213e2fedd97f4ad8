import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { type TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { comparable, eventsOn } from '../../testing/raw-vs-express';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;
type Answer = Awaited<ReturnType<TestBrowser['request']>>;

/** Two auth services on the same in-memory setup: one with the raw GET /authorize ahead of express, one without. */
async function pair(opts: Parameters<typeof startAuth>[0] = {}) {
  const fastBus = new MemoryEventBus();
  const expressBus = new MemoryEventBus();
  const fast = await startAuth({ ...opts, bus: fastBus });
  const express = await startAuth({ ...opts, bus: expressBus, expressOnly: true });
  return { fast, express, fastBus, expressBus, stop: () => Promise.all([fast.stop(), express.stop()]) };
}

/** The same request from a new browser of each service; also how many of the fast one's requests express served. */
async function both(
  p: { fast: Auth; express: Auth },
  path: string,
  init: Parameters<TestBrowser['request']>[1] & { headers?: Record<string, string> } = {},
) {
  const before = p.fast.expressRequests();
  const answers: Answer[] = [];
  for (const auth of [p.fast, p.express]) {
    const browser = auth.browser();
    Object.assign(browser.headers, init.headers);
    answers.push(await browser.request(path, init));
  }
  return { fast: answers[0]!, express: answers[1]!, viaExpress: p.fast.expressRequests() - before };
}

describe('GET /authorize ahead of express: a first visit answers exactly as the express route does', () => {
  const p = startedForSuite(pair);

  it('serves a new browser itself: same status, headers, cookies, page and flow events as express', async () => {
    const { fast, express, viaExpress } = await both(p, authorizePath());
    assert.equal(viaExpress, 0);
    assert.equal(fast.status, 200);
    assert.deepEqual(comparable(fast), comparable(express));
    assert.match(fast.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.deepEqual(
      Array.from(fast.headers.getSetCookie(), (c) => c.split('=')[0]),
      ['sesame_session', 'sesame_device'],
    );
    assert.deepEqual(eventsOn(p.fastBus), eventsOn(p.expressBus));
  });

  it('picks the same locale: ui_locales first, then Accept-Language; prefills a login_hint; echoes X-Request-Id', async () => {
    const cases: Array<{ path: string; headers: Record<string, string> }> = [
      { path: authorizePath({ ui_locales: 'de fr' }), headers: { 'accept-language': 'fr' } },
      { path: authorizePath(), headers: { 'accept-language': 'fr-CH, de;q=0.5' } },
      { path: authorizePath({ login_hint: "email:o'neil+x@example.com" }), headers: {} },
      { path: authorizePath(), headers: { 'x-request-id': 'req-42' } },
    ];
    for (const { path, headers } of cases) {
      const { fast, express, viaExpress } = await both(p, path, { headers });
      assert.equal(viaExpress, 0, path);
      assert.deepEqual(comparable(fast), comparable(express));
    }
    const german = await both(p, authorizePath({ ui_locales: 'de' }));
    assert.match(german.fast.body, /<html lang="de">/);
    const echoed = await both(p, authorizePath(), { headers: { 'x-request-id': 'req-42' } });
    assert.equal(echoed.fast.headers.get('x-request-id'), 'req-42');
  });

  it('keeps a browser’s device cookie and issues only the session cookie', async () => {
    const device = 'sesame_device=0b7e4d52-6c1f-4b8e-9a53-0f2d7c3e9a11';
    const { fast, express, viaExpress } = await both(p, authorizePath(), { headers: { cookie: device } });
    assert.equal(viaExpress, 0);
    assert.deepEqual(comparable(fast), comparable(express));
    assert.deepEqual(
      Array.from(fast.headers.getSetCookie(), (c) => c.split('=')[0]),
      ['sesame_session'],
    );
  });
});

describe('GET /authorize ahead of express: anything else goes to express and answers as before', () => {
  const p = startedForSuite(pair);

  const cases: Array<[string, string, Parameters<TestBrowser['request']>[1]]> = [
    ['an unknown client (error page)', authorizePath({ client_id: 'nobody' }), {}],
    ['a foreign redirect_uri (error page)', authorizePath({ redirect_uri: 'https://evil.example/cb' }), {}],
    ['a refused parameter (error redirect)', authorizePath({ response_type: 'token' }), {}],
    ['a repeated parameter', `${authorizePath()}&state=again`, {}],
    ['a bracketed parameter name', `${authorizePath()}&scope[x]=1`, {}],
    ['an undecodable value', `${authorizePath()}&nonce=%E0%A4%A`, {}],
    ['a request object', authorizePath({ request: 'a.b.c.d.e' }), {}],
    [
      'a POST form',
      '/authorize',
      { form: Object.fromEntries(new URLSearchParams(authorizePath().split('?')[1])) },
    ],
    ['a HEAD request', authorizePath(), { method: 'HEAD' }],
  ];
  for (const [name, path, init] of cases) {
    it(`hands ${name} to express`, async () => {
      const { fast, express, viaExpress } = await both(p, path, init);
      assert.equal(viaExpress, 1);
      assert.deepEqual(comparable(fast), comparable(express));
    });
  }

  it('hands a browser with a session cookie to express (single sign-on is decided there)', async () => {
    const browser = p.fast.browser();
    await browser.request(authorizePath());
    const before = p.fast.expressRequests();
    const again = await browser.request(authorizePath());
    assert.equal(p.fast.expressRequests() - before, 1);
    assert.equal(again.status, 200);
    assert.equal(again.headers.getSetCookie().length, 0); // the session it has is kept
  });
});

describe('GET /authorize ahead of express: the tenant location rule', () => {
  const p = startedForSuite(() => pair({ client: { blockedCountries: ['US'] }, behindProxy: true }));

  it('hands a browser in a blocked country to express (risk_access_restriction), serves one elsewhere', async () => {
    const blocked = await both(p, authorizePath(), { headers: { 'x-forwarded-for': '8.8.8.8' } });
    assert.equal(blocked.viaExpress, 1);
    assert.deepEqual(comparable(blocked.fast), comparable(blocked.express));
    assert.match(blocked.fast.location, /error=risk_access_restriction/);
    const elsewhere = await both(p, authorizePath(), { headers: { 'x-forwarded-for': '81.2.69.142' } });
    assert.equal(elsewhere.viaExpress, 0);
    assert.deepEqual(comparable(elsewhere.fast), comparable(elsewhere.express));
    assert.deepEqual(eventsOn(p.fastBus), eventsOn(p.expressBus));
  });
});
