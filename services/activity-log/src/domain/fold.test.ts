import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { FlowEventFacts } from '@sesame/flow-events';
import { authenticationFlow, flowEvent } from '../testing/fixtures';
import type { FlowState } from './activity-record';
import { MAX_EVENTS_PER_FLOW, foldFlow } from './fold';

/** Deterministic shuffle (mulberry32), so a failure can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  let s = seed;
  const rand = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function foldInBatches(events: FlowEventFacts[], seed: number): FlowState | undefined {
  let state: FlowState | undefined;
  const order = shuffled([...events, ...events.slice(0, 3)], seed); // with redeliveries
  for (let i = 0; i < order.length; ) {
    const size = 1 + ((seed + i) % 4);
    state = foldFlow(state, order.slice(i, i + size)) ?? state;
    i += size;
  }
  return state;
}

describe('fold of a flow', () => {
  it('is independent of delivery order, batching and redelivery (200 random schedules)', () => {
    const events = [
      ...authenticationFlow('f', 1000),
      flowEvent({
        flowId: 'f',
        eventId: 'late',
        timestamp: 4000,
        status: 'failure',
        userAlias: 'late-alias',
      }),
      flowEvent({ flowId: 'f', eventId: 'early-tie', timestamp: 1000, appId: 'app-0' }),
    ];
    const reference = foldFlow(undefined, events);
    for (let seed = 1; seed <= 200; seed++)
      assert.deepEqual(foldInBatches(events, seed), reference, `seed ${seed}`);
    assert.equal(reference?.record.status, 'failure');
    assert.equal(reference?.record.appId, 'app-0', 'appId comes from the earliest event (ties by id)');
    assert.equal(reference?.record.events.length, 6);
  });

  it('returns undefined when nothing new arrives, so nothing is written', () => {
    const events = authenticationFlow('f', 1000);
    const state = foldFlow(undefined, events);
    assert.equal(foldFlow(state, events), undefined);
    assert.equal(foldFlow(state, [events[1]!]), undefined);
  });

  it(`keeps the first ${MAX_EVENTS_PER_FLOW} events of a runaway flow, whatever the order`, () => {
    const events = Array.from({ length: MAX_EVENTS_PER_FLOW + 20 }, (_, i) =>
      flowEvent({ flowId: 'f', eventId: `e${String(i).padStart(5, '0')}`, timestamp: 1000 + i }),
    );
    const forward = foldFlow(undefined, events);
    const backward = foldFlow(undefined, [...events].reverse());
    assert.equal(forward?.record.events.length, MAX_EVENTS_PER_FLOW);
    assert.deepEqual(forward, backward);
    assert.equal(forward?.record.events.at(-1)?.id, `e${String(MAX_EVENTS_PER_FLOW - 1).padStart(5, '0')}`);
  });

  it('does not let an empty value in a later event clear a fact', () => {
    const state = foldFlow(undefined, [
      flowEvent({ flowId: 'f', eventId: 'a', timestamp: 1, userId: 'u' }),
      flowEvent({ flowId: 'f', eventId: 'b', timestamp: 2, userId: '' }),
    ]);
    assert.equal(state?.record.userId, 'u');
  });

  describe('a failure the flow got past', () => {
    const f = (eventId: string, timestamp: number, facts: Partial<FlowEventFacts>) =>
      flowEvent({ flowId: 'f', eventId, timestamp, ...facts });
    const wrongCode = f('wrong', 2, { action: 'email_verification_failure', failureReason: 'wrong code' });
    const killed = f('killed', 3, {
      action: 'email_verification_failure',
      failureReason: 'code dead after 5 wrong tries',
      errorCode: 'auth_failure',
      status: 'failure',
    });
    const start = f('start', 1, { status: 'incomplete' });
    const success = f('done', 9, { action: 'auth_complete', status: 'success' });

    it('drops errorCode and failureReason older than the status: a flow that succeeded after a dead code reads success', () => {
      for (const order of [
        [start, wrongCode, killed, success],
        [success, killed, start, wrongCode],
      ]) {
        const record = foldFlow(undefined, order)?.record;
        assert.equal(record?.status, 'success');
        assert.equal(record?.errorCode, undefined);
        assert.equal(record?.failureReason, undefined);
      }
    });

    it('keeps errorCode and failureReason from the event that set the status, and a reason newer than it', () => {
      const failed = foldFlow(undefined, [start, wrongCode, killed])?.record;
      assert.deepEqual(
        [failed?.status, failed?.errorCode, failed?.failureReason],
        ['failure', 'auth_failure', 'code dead after 5 wrong tries'],
      );
      const stillTrying = foldFlow(undefined, [start, wrongCode])?.record;
      assert.deepEqual([stillTrying?.status, stillTrying?.failureReason], ['incomplete', 'wrong code']);
    });

    it('is independent of delivery order with the stale facts dropped (200 random schedules)', () => {
      const events = [start, wrongCode, killed, success];
      const reference = foldFlow(undefined, events);
      for (let seed = 1; seed <= 200; seed++)
        assert.deepEqual(foldInBatches(events, seed)?.record, reference?.record, `seed ${seed}`);
    });
  });
});
