import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { eventually, realServers, testLogLevel } from '@sesame/testing';
import { Kafka, logLevel } from 'kafkajs';
import pino from 'pino';
import { eventBusContract } from './contract';
import { KafkaEventBus } from './kafka';
import { KafkaConsumer } from './kafka-consumer';
import { Outbox } from './outbox';

const logger = pino({ level: testLogLevel() });
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function outboxDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sesame-kafka-outbox-'));
  dirs.push(dir);
  return dir;
}

eventBusContract('kafka', async () =>
  KafkaEventBus.create({
    brokers: realServers().kafkaBrokers,
    clientId: `contract-${randomUUID()}`,
    outboxDir: await outboxDir(),
    logger,
  }),
);

describe('KafkaEventBus', () => {
  it('events buffered while Kafka is unreachable outlive their pod: another pod adopts the outbox and delivers them all', async () => {
    const shared = await outboxDir();
    const topic = `events.adopt.${randomUUID()}`;
    const clientId = `adopt-${randomUUID()}`;
    // Pod A: the producer points at a closed port (the shared Kafka keeps running for everyone else).
    const a = await KafkaEventBus.create({
      brokers: ['127.0.0.1:1'],
      clientId,
      outboxDir: '',
      logger,
      sendTimeoutMs: 200,
      shared: { sharedDir: shared, pod: 'pod-a', leaseMs: 1_000 },
    });
    const sent = [1, 2, 3, 4, 5].map((i) => `e${i}`);
    await a.publisher.publish(
      topic,
      sent.map((v) => ({ key: v, value: Buffer.from(v) })),
    );
    assert.equal(a.publisher.pending(), 5, 'buffered in the outbox');
    // Pod A goes away (its drain cannot reach Kafka either) and its local data with it.
    await a.close();
    // Pod B, on the real Kafka, shares the volume and adopts pod A's outbox once its lease lapses.
    const b = await KafkaEventBus.create({
      brokers: realServers().kafkaBrokers,
      clientId,
      outboxDir: '',
      logger,
      shared: { sharedDir: shared, pod: 'pod-b', leaseMs: 1_000 },
    });
    try {
      await b.ensureTopics([topic]);
      const got: string[] = [];
      const consumer = b.consumer({ groupId: `g-${randomUUID()}`, topics: [topic] });
      await consumer.start(async (batch) => void got.push(...batch.map((e) => e.value.toString())));
      await eventually(
        async () => got.length,
        (n) => n >= 5,
        30_000,
      );
      assert.deepEqual([...new Set(got)].sort(), sent);
      // The adopter removes the outbox after the broker acknowledged its events, which the consumer may see
      // first: wait for the removal (bounded), then require that only pod B's own outbox is left.
      const left = await eventually(
        async () => [...(await readdir(shared))],
        (names) => names.length === 1,
        10_000,
      );
      assert.deepEqual(left, ['pod-b'], 'the adopted outbox is gone');
      await consumer.stop();
    } finally {
      await b.close();
    }
  });

  it("reports each partition's consumer lag: what was behind the chunk just committed, down to 0", async () => {
    const topic = `events.lag.${randomUUID()}`;
    const groupId = `g-${randomUUID()}`;
    const bus = await KafkaEventBus.create({
      brokers: realServers().kafkaBrokers,
      clientId: `lag-${randomUUID()}`,
      outboxDir: await outboxDir(),
      logger,
    });
    try {
      await bus.ensureTopics([topic]);
      const events = [1, 2, 3, 4, 5].map((i) => ({ key: 'one-partition', value: Buffer.from(`v${i}`) }));
      await bus.publisher.publish(topic, events);
      await bus.publisher.flush();
      const seen: number[] = [];
      const consumer = bus.consumer({ groupId, topics: [topic], maxBatchSize: 1 });
      await consumer.start(async () => {
        const lag = bus.consumerLag().filter((l) => l.topic === topic);
        if (lag.length) seen.push(lag[0]!.lag);
      });
      await eventually(
        async () => bus.consumerLag().find((l) => l.topic === topic && l.groupId === groupId)?.lag,
        (lag) => lag === 0,
        30_000,
      );
      // Seen from inside the handler of chunks 2..5: the lag after chunks 1..4.
      assert.deepEqual(seen, [4, 3, 2, 1]);
      await consumer.stop();
    } finally {
      await bus.close();
    }
  });

  it('replays on start what a crashed publisher left in its outbox', async () => {
    const dir = await outboxDir();
    const clientId = `crashed-${randomUUID()}`;
    const topic = `events.replay.${randomUUID()}`;
    const left = await Outbox.open(dir, clientId);
    await left.append(
      [1, 2, 3].map((i) => ({ topic, key: 'k', value: Buffer.from(`v${i}`), headers: { i: String(i) } })),
    );
    await left.close();

    const bus = await KafkaEventBus.create({
      brokers: realServers().kafkaBrokers,
      clientId,
      outboxDir: dir,
      logger,
    });
    try {
      await bus.ensureTopics([topic]);
      assert.ok(bus.publisher.pending() <= 3);
      const got: string[] = [];
      const consumer = bus.consumer({ groupId: `g-${randomUUID()}`, topics: [topic] });
      await consumer.start(async (batch) => void got.push(...batch.map((e) => `${e.value}:${e.headers.i}`)));
      await bus.publisher.publish(topic, [{ key: 'k', value: Buffer.from('v4'), headers: { i: '4' } }]);
      await eventually(
        async () => got.length,
        (n) => n >= 4,
        30_000,
      );
      await consumer.stop();
      assert.deepEqual(got, ['v1:1', 'v2:2', 'v3:3', 'v4:4']);
      await bus.publisher.flush(5_000);
      assert.equal(bus.publisher.pending(), 0);
    } finally {
      await bus.close();
    }
  });

  it('moves an event the broker refuses for good aside and delivers the rest in order', async () => {
    const dir = await outboxDir();
    const clientId = `poison-${randomUUID()}`;
    const topic = `events.poison.${randomUUID()}`;
    const bus = await KafkaEventBus.create({
      brokers: realServers().kafkaBrokers,
      clientId,
      outboxDir: dir,
      logger,
    });
    try {
      await bus.ensureTopics([topic]);
      const got: string[] = [];
      const consumer = bus.consumer({ groupId: `g-${randomUUID()}`, topics: [topic] });
      await consumer.start(
        async (batch) => void got.push(...batch.map((e) => e.value.subarray(0, 10).toString())),
      );
      const huge = Buffer.alloc(2 * 1024 * 1024, 'h'); // over the broker's default 1 MiB message.max.bytes
      await bus.publisher.publish(topic, [
        { key: 'k', value: Buffer.from('before') },
        { key: 'k', value: huge },
        { key: 'k', value: Buffer.from('after') },
      ]);
      await bus.publisher.flush(30_000);
      await eventually(
        async () => got.length,
        (n) => n >= 2,
        30_000,
      );
      await consumer.stop();
      assert.deepEqual(got, ['before', 'after']);
      const rejected = (await readFile(join(dir, `${clientId}.rejected`), 'utf8')).trim().split('\n');
      assert.equal(rejected.length, 1);
      assert.equal(JSON.parse(rejected[0]!).reason, 'MESSAGE_TOO_LARGE');
    } finally {
      await bus.close();
    }
  });

  it('keeps its partition while a handler outlives the session timeout: nothing is delivered twice', async () => {
    const bus = await KafkaEventBus.create({
      brokers: realServers().kafkaBrokers,
      clientId: `slow-${randomUUID()}`,
      outboxDir: await outboxDir(),
      logger,
    });
    try {
      const topic = `events.slow.${randomUUID()}`;
      await bus.ensureTopics([topic]);
      const seen: string[] = [];
      const consumer = bus.consumer({ groupId: `g-${randomUUID()}`, topics: [topic] });
      await consumer.start(async (batch) => {
        seen.push(...batch.map((e) => e.value.toString()));
        // Longer than the 10 s session timeout: without heartbeats the group would drop this member and
        // hand the uncommitted batch out again.
        if (seen.length === 1) await new Promise((r) => setTimeout(r, 13_000));
      });
      await bus.publisher.publish(topic, [{ key: 'k', value: Buffer.from('slow') }]);
      await eventually(
        async () => seen.length,
        (n) => n >= 1,
        30_000,
      );
      await new Promise((r) => setTimeout(r, 13_500));
      await bus.publisher.publish(topic, [{ key: 'k', value: Buffer.from('next') }]);
      await eventually(async () => seen.includes('next'), Boolean, 30_000);
      await consumer.stop();
      assert.deepEqual(seen, ['slow', 'next']);
    } finally {
      await bus.close();
    }
  });

  it('deletes an ephemeral group from the broker when its member stops; a group that is not ephemeral stays', async () => {
    const bus = await KafkaEventBus.create({
      brokers: realServers().kafkaBrokers,
      clientId: `ephemeral-${randomUUID()}`,
      outboxDir: await outboxDir(),
      logger,
    });
    const admin = new Kafka({ brokers: realServers().kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
    try {
      const topic = `events.ephemeral.${randomUUID()}`;
      await bus.ensureTopics([topic]);
      await admin.connect();
      const groups = async () => new Set((await admin.listGroups()).groups.map((g) => g.groupId));
      const consumeAndStop = async (groupId: string, ephemeral: boolean) => {
        const seen: string[] = [];
        const consumer = bus.consumer({ groupId, topics: [topic], ephemeral });
        await consumer.start(async (batch) => void seen.push(...batch.map((e) => e.value.toString())));
        await eventually(
          async () => seen.length,
          (n) => n >= 1,
          30_000,
        );
        // Committed on the broker while it runs, as any group.
        await eventually(
          async () => (await admin.fetchOffsets({ groupId, topics: [topic] }))[0]!.partitions,
          (partitions) => partitions.some((p) => Number(p.offset) > 0),
          30_000,
        );
        assert.ok((await groups()).has(groupId));
        await consumer.stop();
      };
      await bus.publisher.publish(topic, [{ key: 'k', value: Buffer.from('v') }]);
      const ephemeral = `g-ephemeral-${randomUUID()}`;
      const durable = `g-durable-${randomUUID()}`;
      await consumeAndStop(ephemeral, true);
      await consumeAndStop(durable, false);
      const left = await groups();
      assert.ok(!left.has(ephemeral), 'the ephemeral group is gone');
      assert.ok(left.has(durable), 'the other group stays');
      await admin.deleteGroups([durable]);
    } finally {
      await admin.disconnect();
      await bus.close();
    }
  });

  it('stop() of an ephemeral consumer resolves when the group cannot be deleted, and logs a warning', async () => {
    const warnings: Record<string, unknown>[] = [];
    const captured = pino(
      { level: 'warn' },
      { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const kafka = new Kafka({ brokers: realServers().kafkaBrokers, logLevel: logLevel.NOTHING });
    const topic = `events.ephemeral-fail.${randomUUID()}`;
    const groupId = `g-${randomUUID()}`;
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      const consumer = new KafkaConsumer(
        kafka,
        { groupId, topics: [topic], ephemeral: true },
        captured,
        () => {},
        async () => {
          throw new Error('broker said no');
        },
      );
      await consumer.start(async () => {});
      await consumer.stop();
      const warning = warnings.find((w) => w.groupId === groupId);
      assert.ok(warning, 'a warning names the group');
      assert.match(String((warning.err as { message?: string }).message), /broker said no/);
    } finally {
      await admin.deleteGroups([groupId]).catch(() => {});
      await admin.disconnect();
    }
  });

  it('ensureTopics is idempotent (also when two calls race to create a topic) and ping answers', async () => {
    const bus = await KafkaEventBus.create({
      brokers: realServers().kafkaBrokers,
      clientId: `admin-${randomUUID()}`,
      outboxDir: await outboxDir(),
      logger,
    });
    const admin = new Kafka({ brokers: realServers().kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
    try {
      const topic = `events.topics.${randomUUID()}`;
      await Promise.all([bus.ensureTopics([topic]), bus.ensureTopics([topic])]);
      await bus.ensureTopics([topic, `${topic}.b`]);
      await admin.connect();
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic, `${topic}.b`] });
      // The broker lists metadata in no particular order.
      assert.deepEqual(
        topics
          .map((t) => [t.name, t.partitions.length])
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
        [
          [topic, 3],
          [`${topic}.b`, 3],
        ],
      );
      await bus.ping();
    } finally {
      await admin.disconnect();
      await bus.close();
    }
  });

  it('ping fails fast when no broker answers, and publish still succeeds into the outbox', async () => {
    const dir = await outboxDir();
    const clientId = `nobroker-${randomUUID()}`;
    const bus = await KafkaEventBus.create({
      brokers: ['127.0.0.1:1'],
      clientId,
      outboxDir: dir,
      logger,
      sendTimeoutMs: 500,
    });
    const t0 = Date.now();
    await assert.rejects(bus.ping());
    assert.ok(Date.now() - t0 < 5_000, 'ping gives up within seconds');
    const t1 = Date.now();
    await bus.publisher.publish('events.nowhere', [{ key: 'k', value: Buffer.from('x') }]);
    assert.ok(Date.now() - t1 < 2_000, 'publish does not wait for the broker');
    assert.equal(bus.publisher.pending(), 1);
    await assert.rejects(bus.publisher.flush(300), /timed out/);
    await bus.close();
    assert.ok((await readdir(dir)).some((f) => f.endsWith('.log')));
    const reopened = await Outbox.open(dir, clientId);
    assert.equal(reopened.size(), 1);
    await reopened.close();
  });
});
