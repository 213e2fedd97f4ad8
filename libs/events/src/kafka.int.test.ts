import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { eventually, realServers } from '@sesame/testing';
import pino from 'pino';
import { eventBusContract } from './contract';
import { KafkaEventBus } from './kafka';
import { Outbox } from './outbox';

const logger = pino({ level: process.env.SESAME_TEST_LOG_LEVEL ?? 'silent' });
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

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

  it('ensureTopics is idempotent and ping answers', async () => {
    const bus = await KafkaEventBus.create({
      brokers: realServers().kafkaBrokers,
      clientId: `admin-${randomUUID()}`,
      outboxDir: await outboxDir(),
      logger,
    });
    try {
      const topic = `events.topics.${randomUUID()}`;
      await bus.ensureTopics([topic]);
      await bus.ensureTopics([topic, `${topic}.b`]);
      await bus.ping();
    } finally {
      await bus.close();
    }
  });

  it('ping fails fast when no broker answers, and publish still succeeds into the outbox', async () => {
    const dir = await outboxDir();
    const bus = await KafkaEventBus.create({
      brokers: ['127.0.0.1:1'],
      clientId: `nobroker-${randomUUID()}`,
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
    const reopened = await Outbox.open(dir, (await import('node:fs')).readdirSync(dir)[0]!.split('.')[0]!);
    assert.equal(reopened.size(), 1);
    await reopened.close();
  });
});
