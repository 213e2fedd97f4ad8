import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { eventually } from '@sesame/testing';
import type { DeliveredEvent, EventBus } from './port';
import { readTopicToEnd } from './read-topic';

const enc = (s: string) => new TextEncoder().encode(s);

/** The behaviour every EventBus adapter must have; run against the in-memory and the Kafka adapter. */
export function eventBusContract(adapter: string, make: () => Promise<EventBus>): void {
  describe(`EventBus contract: ${adapter}`, () => {
    let bus: EventBus;
    beforeAll(async () => {
      bus = await make();
    });
    afterAll(() => bus.close());

    it('delivers published events to a consumer group in per-key order with their keys and headers', async () => {
      const topic = `contract.order.${randomUUID()}`;
      await bus.ensureTopics([topic]);
      const received: DeliveredEvent[] = [];
      const consumer = bus.consumer({ groupId: `g-${randomUUID()}`, topics: [topic] });
      await consumer.start(async (batch) => {
        received.push(...batch);
      });
      const events = [];
      for (let i = 0; i < 30; i++)
        events.push({ key: `flow-${i % 3}`, value: enc(`${i}`), headers: { n: String(i) } });
      await bus.publisher.publish(topic, events);
      await eventually(
        async () => received.length,
        (n) => n >= 30,
        30_000,
      );
      await consumer.stop();
      assert.equal(received.length, 30);
      for (const key of ['flow-0', 'flow-1', 'flow-2']) {
        const seq = received.filter((e) => e.key === key).map((e) => Number(Buffer.from(e.value).toString()));
        assert.deepEqual(
          seq,
          [...seq].sort((a, b) => a - b),
          `order for ${key}`,
        );
        assert.equal(seq.length, 10);
      }
      assert.ok(received.every((e) => e.headers.n === Buffer.from(e.value).toString()));
    });

    it('a restarted consumer in the same group resumes after its committed offsets', async () => {
      const topic = `contract.resume.${randomUUID()}`;
      const groupId = `g-${randomUUID()}`;
      await bus.ensureTopics([topic]);
      const first: string[] = [];
      const c1 = bus.consumer({ groupId, topics: [topic] });
      await c1.start(async (batch) => {
        first.push(...batch.map((e) => Buffer.from(e.value).toString()));
      });
      await bus.publisher.publish(
        topic,
        [1, 2, 3, 4, 5].map((i) => ({ key: 'k', value: enc(`a${i}`) })),
      );
      await eventually(
        async () => first.length,
        (n) => n >= 5,
        30_000,
      );
      await c1.stop();

      await bus.publisher.publish(
        topic,
        [1, 2, 3].map((i) => ({ key: 'k', value: enc(`b${i}`) })),
      );
      const second: string[] = [];
      const c2 = bus.consumer({ groupId, topics: [topic] });
      await c2.start(async (batch) => {
        second.push(...batch.map((e) => Buffer.from(e.value).toString()));
      });
      await eventually(
        async () => second.length,
        (n) => n >= 3,
        30_000,
      );
      await c2.stop();
      assert.deepEqual(first, ['a1', 'a2', 'a3', 'a4', 'a5']);
      assert.deepEqual(second, ['b1', 'b2', 'b3']);
    });

    it("an ephemeral group's committed offsets go when its member stops: the group id starts afresh", async () => {
      const topic = `contract.ephemeral.${randomUUID()}`;
      const groupId = `g-${randomUUID()}`;
      await bus.ensureTopics([topic]);
      const readUntil = async (last: string) => {
        const seen: string[] = [];
        const consumer = bus.consumer({ groupId, topics: [topic], ephemeral: true });
        await consumer.start(async (batch) => {
          seen.push(...batch.map((e) => Buffer.from(e.value).toString()));
        });
        await eventually(async () => seen.includes(last), Boolean, 30_000);
        await consumer.stop();
        return seen;
      };
      const publish = (...values: string[]) =>
        bus.publisher.publish(
          topic,
          values.map((v) => ({ key: 'k', value: enc(v) })),
        );
      await publish('e1', 'e2');
      assert.deepEqual(await readUntil('e2'), ['e1', 'e2']);
      await publish('e3');
      // Had the first member's commits stayed, this member would start after them, at e3.
      assert.deepEqual(await readUntil('e3'), ['e1', 'e2', 'e3'], 'read again from the beginning');
    });

    it('redelivers a batch whose handler failed, and commits it once it succeeds', async () => {
      const topic = `contract.retry.${randomUUID()}`;
      await bus.ensureTopics([topic]);
      let attempts = 0;
      const delivered: string[] = [];
      const groupId = `g-${randomUUID()}`;
      const consumer = bus.consumer({ groupId, topics: [topic] });
      await consumer.start(async (batch) => {
        attempts++;
        if (attempts === 1) throw new Error('transient failure');
        delivered.push(...batch.map((e) => Buffer.from(e.value).toString()));
      });
      await bus.publisher.publish(topic, [{ key: 'x', value: enc('only') }]);
      await eventually(
        async () => delivered.length,
        (n) => n >= 1,
        30_000,
      );
      await consumer.stop();
      assert.ok(attempts >= 2);
      assert.deepEqual(delivered, ['only']);
      // Committed: the group's next consumer starts after it and sees only what came later.
      await bus.publisher.publish(topic, [{ key: 'x', value: enc('later') }]);
      const after: string[] = [];
      const next = bus.consumer({ groupId, topics: [topic] });
      await next.start(
        async (batch) => void after.push(...batch.map((e) => Buffer.from(e.value).toString())),
      );
      await eventually(
        async () => after.length,
        (n) => n >= 1,
        30_000,
      );
      await next.stop();
      assert.deepEqual(after, ['later']);
    });

    it('two groups each receive every event', async () => {
      const topic = `contract.groups.${randomUUID()}`;
      await bus.ensureTopics([topic]);
      const a: string[] = [];
      const b: string[] = [];
      const ca = bus.consumer({ groupId: `ga-${randomUUID()}`, topics: [topic] });
      const cb = bus.consumer({ groupId: `gb-${randomUUID()}`, topics: [topic] });
      await ca.start(async (batch) => void a.push(...batch.map((e) => e.key)));
      await cb.start(async (batch) => void b.push(...batch.map((e) => e.key)));
      await bus.publisher.publish(topic, [
        { key: 'e1', value: enc('1') },
        { key: 'e2', value: enc('2') },
      ]);
      await eventually(
        async () => a.length + b.length,
        (n) => n >= 4,
        30_000,
      );
      await Promise.all([ca.stop(), cb.stop()]);
      assert.deepEqual([...a].sort(), ['e1', 'e2']);
      assert.deepEqual([...b].sort(), ['e1', 'e2']);
    });

    it('endOffsets marks the end of what was published; readTopicToEnd returns exactly the events before it', async () => {
      const topic = `contract.end.${randomUUID()}`;
      await bus.ensureTopics([topic]);
      const total = async () =>
        (await bus.endOffsets(topic)).reduce((n, { offset }) => n + Number(offset), 0);
      assert.equal(await total(), 0);
      assert.deepEqual(await readTopicToEnd(bus, topic), []);

      const values = (events: DeliveredEvent[]) => events.map((e) => Buffer.from(e.value).toString()).sort();
      const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
      await bus.publisher.publish(
        topic,
        keys.map((k) => ({ key: k, value: enc(`v-${k}`) })),
      );
      await bus.publisher.flush(10_000);
      assert.equal(await total(), 7);
      assert.deepEqual(
        values(await readTopicToEnd(bus, topic)),
        keys.map((k) => `v-${k}`),
      );

      // A duplicate is read as one: nothing is deduplicated or dropped.
      await bus.publisher.publish(topic, [{ key: 'c', value: enc('v-c') }]);
      await bus.publisher.flush(10_000);
      assert.deepEqual(values(await readTopicToEnd(bus, topic)), [
        'v-a',
        'v-b',
        'v-c',
        'v-c',
        'v-d',
        'v-e',
        'v-f',
        'v-g',
      ]);
      assert.deepEqual(values(await readTopicToEnd(bus, topic, { filter: (e) => e.key === 'c' })), [
        'v-c',
        'v-c',
      ]);

      // What is published after the ends were taken is not part of the read.
      const late: EventBus = Object.create(bus, {
        endOffsets: {
          value: async (t: string) => {
            const ends = await bus.endOffsets(t);
            await bus.publisher.publish(t, [{ key: 'late', value: enc('late') }]);
            await bus.publisher.flush(10_000);
            return ends;
          },
        },
      });
      const read = await readTopicToEnd(late, topic);
      assert.equal(read.length, 8);
      assert.ok(!values(read).includes('late'));
      assert.equal(await total(), 9);
    });

    it('flush resolves with nothing pending', async () => {
      await bus.publisher.flush(10_000);
      assert.equal(bus.publisher.pending(), 0);
    });
  });
}
