import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { flowEvent } from '../testing/fixtures';
import { MAX_EVENT_BYTES_PER_FLOW, foldFlow } from './fold';

const MONGO_DOCUMENT_LIMIT = 16 * 1024 * 1024;

describe('foldFlow byte cap', () => {
  // 60 events of ~200 KB: far fewer than the count cap, but past the byte cap.
  const events = Array.from({ length: 60 }, (_, i) =>
    flowEvent({
      eventId: `e${String(i).padStart(3, '0')}`,
      timestamp: 1_700_000_000_000 + i,
      details: { blob: 'x'.repeat(200_000) },
    }),
  );
  const bytes = (state: ReturnType<typeof foldFlow>) =>
    Buffer.byteLength(JSON.stringify(state?.record.events ?? []));

  it('keeps the first events by time within the byte cap, well below the Mongo document limit', () => {
    const folded = foldFlow(undefined, events);
    const kept = folded?.record.events ?? [];
    assert.ok(kept.length > 0 && kept.length < events.length, `${kept.length} kept`);
    assert.ok(bytes(folded) <= MAX_EVENT_BYTES_PER_FLOW, `${bytes(folded)} bytes`);
    assert.ok(MAX_EVENT_BYTES_PER_FLOW <= MONGO_DOCUMENT_LIMIT / 2);
    assert.deepEqual(
      kept.map((e) => e.id),
      events.slice(0, kept.length).map((e) => e.eventId),
    );
  });

  it('keeps the same events whatever the order and split of the deliveries', () => {
    const once = foldFlow(undefined, events);
    const reversed = [...events].reverse();
    let split = foldFlow(undefined, reversed.slice(0, 25));
    split = foldFlow(split, reversed.slice(25)) ?? split;
    split = foldFlow(split, events.slice(10, 40)) ?? split;
    assert.deepEqual(
      split?.record.events.map((e) => e.id),
      once?.record.events.map((e) => e.id),
    );
  });

  it('with the stored JSON as the bound (as the engine reads it), it keeps what it keeps without one', () => {
    /** Folds `later` onto `earlier` as the engine does: the record read back from its JSON, the bound its size. */
    const fromStore = (earlier: typeof events, later: typeof events) => {
      const state = foldFlow(undefined, earlier)!;
      const json = JSON.stringify(state.record);
      const stored = { record: JSON.parse(json), versions: { ...state.versions } };
      return foldFlow(stored, later, Buffer.byteLength(json));
    };
    const small = events.map((e, i) => ({ ...e, details: { blob: 'y'.repeat(i) } }));
    const cases = [
      ['past the cap', events.slice(0, 30), events.slice(30)],
      ['past the cap, the later events first by time', events.slice(30), events.slice(0, 30)],
      ['below the cap', events.slice(0, 20), events.slice(20, 21)],
      ['small events', small.slice(0, 40), small.slice(40)],
    ] as const;
    const ids = (state: ReturnType<typeof foldFlow>) => state?.record.events.map((e) => e.id);
    for (const [name, earlier, later] of cases) {
      assert.deepEqual(
        ids(fromStore(earlier, later)),
        ids(foldFlow(undefined, [...earlier, ...later])),
        name,
      );
    }
    assert.ok(ids(fromStore(events.slice(0, 30), events.slice(30)))!.length < events.length);
  });
});
