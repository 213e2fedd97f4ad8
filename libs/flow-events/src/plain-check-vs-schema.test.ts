import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { seeded, testSeed } from '@sesame/testing';
import { generatedEvent } from './generated-events.test-support';
import { plainlyValidInput, plainlyValidWire } from './plain-check';
import { toFlowEventFacts } from './publisher';
import { flowEventInputSchema, flowEventWireSchema } from './schema';

/**
 * Differential test of the quick check (plain-check.ts) against the zod schemas it stands in for, over
 * generated events: valid ones and ones with a member missing, of another type, on or past a bound, unknown,
 * or with a prototype trick. The quick check must never accept what zod refuses, must return what zod
 * returns when it accepts, and must accept every valid event except the ones it leaves to zod by design.
 */

const SEED = testSeed(20_241_126);
const EVENTS = 3000;

/**
 * The value with every object a plain `{}`: zod builds its answer from plain objects, while the quick check
 * passes on a prototype-less object (Object.create(null)) as it is, the same members and values.
 */
function withObjectPrototypes(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withObjectPrototypes(v)]));
}

const isIpv6 = (v: unknown) => typeof v === 'string' && v.includes(':');
/** What the quick check leaves to zod by design: IPv6 addresses, and details that are no plain `{}`. */
const leftToZod = (e: Record<string, unknown>) =>
  isIpv6(e.clientIp) ||
  isIpv6(e.accessingIp) ||
  (typeof e.details === 'object' &&
    e.details !== null &&
    Object.getPrototypeOf(e.details) !== Object.prototype);

describe('plain checks vs the zod schemas, over generated events', () => {
  const g = seeded(SEED);
  const events = Array.from({ length: EVENTS }, () => generatedEvent(g));

  it(`accepts a producer input only when flowEventInputSchema does, with zod's facts (seed ${SEED})`, () => {
    let plain = 0;
    let refused = 0;
    for (const input of events) {
      const zod = flowEventInputSchema.safeParse(input);
      if (!zod.success) refused++;
      if (!plainlyValidInput(input)) {
        if (zod.success && !leftToZod(input)) assert.fail(`valid, yet left to zod: ${JSON.stringify(input)}`);
        continue;
      }
      plain++;
      assert.ok(zod.success, `plainly valid but zod refuses: ${JSON.stringify(input)}`);
      // What the publisher makes of zod's answer (its slow path): the defaults filled in.
      const { eventId, timestamp, details, ...rest } = zod.data;
      const viaZod = {
        ...rest,
        eventId: eventId ?? 'generated',
        timestamp: timestamp ?? 5,
        details: details ?? {},
      };
      assert.deepEqual(
        withObjectPrototypes(
          toFlowEventFacts(
            input as never,
            () => 5,
            () => 'generated',
          ),
        ),
        viaZod,
      );
    }
    // The generator reaches both sides: neither all valid nor all refused.
    assert.ok(plain > EVENTS / 10, `only ${plain} plainly valid`);
    assert.ok(refused > EVENTS / 10, `only ${refused} refused`);
  });

  it(`accepts decoded facts only when flowEventWireSchema does, unchanged by it (seed ${SEED})`, () => {
    let plain = 0;
    let refused = 0;
    for (const input of events) {
      const facts = { eventId: 'ev-2', timestamp: 1, details: {}, ...input };
      const zod = flowEventWireSchema.safeParse(facts);
      if (!zod.success) refused++;
      if (!plainlyValidWire(facts)) {
        // Besides refusals, only members zod would strip (decoding never makes them) are left to zod.
        if (zod.success && !('unknownMember' in facts) && !leftToZod(facts))
          assert.fail(`valid, nothing to strip, yet left to zod: ${JSON.stringify(facts)}`);
        continue;
      }
      plain++;
      assert.ok(zod.success, `plainly valid but zod refuses: ${JSON.stringify(facts)}`);
      assert.deepEqual(zod.data, withObjectPrototypes(facts));
    }
    assert.ok(plain > EVENTS / 10, `only ${plain} plainly valid`);
    assert.ok(refused > EVENTS / 10, `only ${refused} refused`);
  });
});
