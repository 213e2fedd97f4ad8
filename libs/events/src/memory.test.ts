import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { eventBusContract } from './contract';
import { MemoryEventBus } from './memory';
import type { DeliveredEvent } from './port';
import { flowControlContract } from './testing/flow-control';

eventBusContract('memory', async () => new MemoryEventBus());

describe('MemoryEventBus flow control', () => {
  flowControlContract(
    async (maxConsumerLag, publishWaitMaxMs) => new MemoryEventBus({ maxConsumerLag, publishWaitMaxMs }),
  );
});

/** One key, so every event lands in one partition. */
const publish = (bus: MemoryEventBus, topic: string, from: number, count: number) =>
  bus.publisher.publish(
    topic,
    Array.from({ length: count }, (_, i) => ({ key: 'k', value: Buffer.from(String(from + i)) })),
  );

async function consumeUntil(bus: MemoryEventBus, groupId: string, topic: string, total: number) {
  const seen: string[] = [];
  const consumer = bus.consumer({ groupId, topics: [topic], maxBatchSize: 500 });
  const done = new Promise<void>((resolve) => {
    void consumer.start(async (batch: DeliveredEvent[]) => {
      seen.push(...batch.map((e) => e.value.toString()));
      if (seen.length >= total) resolve();
    });
  });
  return { seen, done, consumer };
}

describe('MemoryEventBus retention', () => {
  it('lets go of events every running group committed, past the newest kept; offsets keep counting', async () => {
    const bus = new MemoryEventBus({ retainedEvents: 100 });
    const { seen, done, consumer } = await consumeUntil(bus, 'g', 't', 5000);
    await publish(bus, 't', 0, 5000);
    await done;
    await consumer.stop();
    assert.equal(seen.length, 5000);
    assert.ok(bus.retained('t') <= 100 + 1024, `kept ${bus.retained('t')} of 5000`);
    assert.ok(bus.retained('t') >= 100);
    assert.deepEqual(
      (await bus.endOffsets('t')).map((p) => p.offset).sort(),
      ['0', '0', '5000'],
      'end offsets count every event published',
    );
    // A new group starts at the oldest event kept, in order, up to the newest.
    const late = bus.nextBatch('late', ['t'], true, 100_000)!;
    assert.equal(late.length, bus.retained('t'));
    assert.equal(late.at(-1)!.value.toString(), '4999');
    assert.equal(Number(late[0]!.offset), 5000 - late.length);
  });

  it('never lets go of an event a running group has not committed, however many are published', async () => {
    const bus = new MemoryEventBus({ retainedEvents: 10 });
    const fast = await consumeUntil(bus, 'fast', 't', 4000);
    // A running member of another group that has committed nothing yet: its handler waits.
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slowSeen: string[] = [];
    const slow = bus.consumer({ groupId: 'slow', topics: ['t'], maxBatchSize: 100_000 });
    await slow.start(async (batch) => {
      await gate;
      slowSeen.push(...batch.map((e) => e.value.toString()));
    });
    await publish(bus, 't', 0, 4000);
    await fast.done;
    assert.equal(bus.retained('t'), 4000, 'the slow group pins all of them');
    release();
    for (let i = 0; i < 100 && slowSeen.length < 4000; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(slowSeen.slice(0, 3), ['0', '1', '2']);
    assert.equal(new Set(slowSeen).size, 4000, 'the slow group got every event');
    await Promise.all([fast.consumer.stop(), slow.stop()]);
  });

  it('keeps everything while nothing is read, up to the retention (a stopped group does not pin)', async () => {
    const bus = new MemoryEventBus({ retainedEvents: 10 });
    await publish(bus, 't', 0, 3000);
    assert.equal(bus.retained('t'), 3000, 'nobody committed: nothing goes');
    const reader = bus.nextBatch('reader', ['t'], true, 100_000)!;
    bus.commit('reader', reader);
    // 'reader' has no running member, so its commit pins nothing, and nothing else holds them.
    assert.ok(bus.retained('t') <= 10 + 1024);
  });
});

describe('MemoryEventBus ephemeral groups', () => {
  async function consumeAndStop(bus: MemoryEventBus, groupId: string, ephemeral: boolean) {
    const seen: string[] = [];
    const consumer = bus.consumer({ groupId, topics: ['t'], ephemeral });
    await consumer.start(async (batch) => void seen.push(...batch.map((e) => e.value.toString())));
    await publish(bus, 't', seen.length, 3);
    for (let i = 0; i < 100 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(seen.length, 3);
    assert.ok(bus.groups().includes(groupId), 'committed while running');
    await consumer.stop();
  }

  it('drops the committed offsets of an ephemeral group when its member stops', async () => {
    const bus = new MemoryEventBus();
    await consumeAndStop(bus, 'pod-cache', true);
    assert.deepEqual(bus.groups(), []);
  });

  it('keeps the committed offsets of a group that is not ephemeral', async () => {
    const bus = new MemoryEventBus();
    await consumeAndStop(bus, 'durable', false);
    assert.deepEqual(bus.groups(), ['durable']);
  });
});

describe('MemoryEventBus lingerMs', () => {
  /** Five publishes 10 ms apart after the consumer went idle; the batch sizes it was handed. */
  async function batchesOf(lingerMs: number): Promise<number[]> {
    const bus = new MemoryEventBus();
    const sizes: number[] = [];
    const consumer = bus.consumer({ groupId: `g-${lingerMs}`, topics: ['t'], lingerMs });
    await consumer.start(async (batch) => {
      sizes.push(batch.length);
    });
    for (let i = 0; i < 5; i++) {
      await publish(bus, 't', i, 1);
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, lingerMs + 50));
    await consumer.stop();
    await bus.close();
    return sizes;
  }

  it('without it, each event of a burst is a batch of its own (taken as soon as it is published)', async () => {
    assert.deepEqual(await batchesOf(0), [1, 1, 1, 1, 1]);
  });

  it('with it, the events published while it waits come as one batch, none lost', async () => {
    const sizes = await batchesOf(200);
    assert.deepEqual(sizes, [5]);
  });
});
