import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { type Gen, seeded, testSeed } from '@sesame/testing';
import { type TestBrowser, startAuth } from '../testing/hosted-test-client';
import { comparable, eventsOn } from '../testing/raw-vs-express';
import { CHALLENGE } from './authorize-test-support';
import { authorizeQueries } from './generated-queries';

/**
 * The raw GET /authorize end to end against the express route, over generated requests: two auth services
 * on the same in-memory setup, one with the raw route ahead of express and one without, each sent the same
 * generated queries from a new browser (sometimes with a device or session cookie, another language, a
 * request id). Whatever the raw route serves itself or hands to express, the answers are the same (status,
 * headers, cookies, page; random ids blanked), and so are the flow events.
 */

const SEED = testSeed(2_026_1126);
const REQUESTS = 200;
const query = authorizeQueries('https://rp.example/cb', CHALLENGE);

type Answer = Awaited<ReturnType<TestBrowser['request']>>;
function headers(g: Gen): Record<string, string> {
  const out: Record<string, string> = {};
  if (g.chance(0.2)) out.cookie = 'sesame_device=0b7e4d52-6c1f-4b8e-9a53-0f2d7c3e9a11';
  if (g.chance(0.3)) out['accept-language'] = g.pick(['de', 'fr-CH, de;q=0.5', 'xx', '*']);
  if (g.chance(0.2)) out['x-request-id'] = g.pick(['req-42', 'a b']);
  return out;
}

describe('GET /authorize: raw route vs express, end to end over generated requests', () => {
  const buses = { fast: new MemoryEventBus(), express: new MemoryEventBus() };
  let fast: Awaited<ReturnType<typeof startAuth>>;
  let express: Awaited<ReturnType<typeof startAuth>>;
  beforeAll(async () => {
    fast = await startAuth({ bus: buses.fast });
    express = await startAuth({ bus: buses.express, expressOnly: true });
  });
  afterAll(() => Promise.all([fast?.stop(), express?.stop()]));

  it(`answers every generated request as express does (seed ${SEED})`, async () => {
    const g = seeded(SEED);
    let served = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const path = `/authorize?${query(g)}`;
      const sent = headers(g);
      const before = fast.expressRequests();
      const answers: Answer[] = [];
      for (const auth of [fast, express]) {
        const browser = auth.browser();
        Object.assign(browser.headers, sent);
        answers.push(await browser.request(path));
      }
      const [viaFast, viaExpress] = answers as [Answer, Answer];
      assert.deepEqual(comparable(viaFast), comparable(viaExpress), `${path} ${JSON.stringify(sent)}`);
      // 431: node:http refused the request line itself (a huge value); neither route saw it.
      if (viaFast.status !== 431 && fast.expressRequests() === before) {
        served++;
        assert.equal(viaFast.status, 200, path);
      }
    }
    assert.deepEqual(eventsOn(buses.fast), eventsOn(buses.express));
    // The raw route serves many itself and hands many on.
    assert.ok(served > REQUESTS / 10 && served < REQUESTS * 0.8, `served ${served} of ${REQUESTS}`);
  });
});
