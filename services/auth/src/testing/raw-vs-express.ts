import type { MemoryEventBus } from '@sesame/events';
import { decodeFlowEvent } from '@sesame/flow-events';
import { topics } from '@sesame/proto';
import type { TestBrowser } from './hosted-test-client';

/** What comparing the raw GET /authorize with the express route needs: the same answer, the same events. */

type Answer = Awaited<ReturnType<TestBrowser['request']>>;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TOKEN = /[\w-]{43}/g; // session ids and CSRF tokens: 256 random bits, base64url
const random = (text: string) => text.replace(UUID, '<uuid>').replace(TOKEN, '<token>');

/** Status, headers and body with the random values (ids, tokens, dates) blanked out, for comparing answers. */
export function comparable(res: Answer) {
  const headers = [...res.headers]
    .filter(([name]) => !['date', 'x-request-id', 'set-cookie'].includes(name))
    .map(([name, value]) => [name, random(value)]);
  const cookies = res.headers.getSetCookie().map(random);
  return { status: res.status, location: random(res.location), headers, cookies, body: random(res.body) };
}

/** The flow events published so far and not read before, without their random ids and times, sorted. */
export function eventsOn(bus: MemoryEventBus): string[] {
  const facts: string[] = [];
  for (;;) {
    const batch = bus.nextBatch('test', [topics.flowEvents], true, 1000);
    if (!batch?.length) return facts.sort();
    for (const e of batch) {
      const { eventId, flowId, timestamp, ...rest } = decodeFlowEvent(e.value);
      facts.push(JSON.stringify(rest));
    }
    bus.commit('test', batch);
  }
}
