import assert from 'node:assert/strict';
import { it } from '@jest/globals';
import type { DeliveredEvent, EventBus } from '../port';

/**
 * Flow control of the in-process buses (MemoryEventBus, EmbeddedEventBus): `make(maxConsumerLag, waitMs)`
 * gives a bus whose publishes wait while a running group is more than that many events behind, at most
 * `waitMs`. Shared by memory.test.ts and embedded.test.ts so both buses are held to the same behaviour.
 */
export function flowControlContract(
  make: (maxConsumerLag: number, publishWaitMaxMs?: number) => Promise<EventBus>,
): void {
  const one = (value: string) => [{ key: 'k', value: Buffer.from(value) }];
  /** Whether `p` is still pending after the bus had a few turns to settle it. */
  const pending = async (p: Promise<unknown>) => {
    let settled = false;
    void p.then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    return !settled;
  };

  it('holds a publish while a running group is more than maxConsumerLag behind, and lets it go once the group catches up', async () => {
    const bus = await make(3);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const seen: string[] = [];
    const consumer = bus.consumer({ groupId: 'slow', topics: ['t'], maxBatchSize: 1 });
    await consumer.start(async (batch: DeliveredEvent[]) => {
      await gate;
      seen.push(...batch.map((e) => Buffer.from(e.value).toString()));
    });
    // The group holds the first event in its handler, uncommitted: three events behind are within the bound
    // (each of these publishes goes at once), the fourth is past it.
    const started = Date.now();
    for (const n of ['1', '2', '3']) await bus.publisher.publish('t', one(n));
    assert.ok(Date.now() - started < 1_000, 'publishes within the bound do not wait');
    const fourth = bus.publisher.publish('t', one('4'));
    assert.equal(await pending(fourth), true, 'the publish past the bound waits');
    const lag = bus.consumerLag().reduce((n, l) => n + (l.groupId === 'slow' ? l.lag : 0), 0);
    assert.equal(lag, 4);
    open();
    await fourth;
    assert.ok(seen.length >= 2, `the group committed before the publish went (${seen.length} handled)`);
    await consumer.stop();
    await bus.close();
  });

  it('holds nothing for a topic no running group reads, and lets every held publish go on close', async () => {
    const bus = await make(1);
    const started = Date.now();
    for (const n of ['1', '2', '3']) await bus.publisher.publish('unread', one(n));
    assert.ok(Date.now() - started < 1_000, 'a topic nobody reads holds no publish');
    const consumer = bus.consumer({ groupId: 'stuck', topics: ['t'] });
    await consumer.start(() => new Promise<void>(() => {}));
    await bus.publisher.publish('t', one('a'));
    const second = bus.publisher.publish('t', one('b'));
    assert.equal(await pending(second), true);
    const closing = Date.now();
    await bus.close();
    await second;
    assert.ok(Date.now() - closing < 1_000, 'close let the held publish go at once');
  });

  it('lets a held publish go after the longest wait when the group never catches up: a stuck consumer does not stop publishing', async () => {
    const bus = await make(1, 200);
    const consumer = bus.consumer({ groupId: 'stuck', topics: ['t'] });
    await consumer.start(() => new Promise<void>(() => {}));
    await bus.publisher.publish('t', one('a'));
    const started = Date.now();
    await bus.publisher.publish('t', one('b'));
    const waited = Date.now() - started;
    assert.ok(waited >= 180 && waited < 2_000, `waited ${waited} ms for a group that never commits`);
    await bus.close();
  });
}
