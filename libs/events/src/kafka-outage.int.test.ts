import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from '@jest/globals';
import { eventually, infraControl, realServers, testLogLevel } from '@sesame/testing';
import pino from 'pino';
import { KafkaEventBus, type KafkaEventBusOptions } from './kafka';
import type { OutgoingEvent } from './port';

const logger = pino({ level: testLogLevel() });
const KEYS = ['flow-a', 'flow-b', 'flow-c', 'flow-d', 'flow-e'];

it('loses no event across a broker outage and a publisher restart', async () => {
  const infra = await infraControl();
  const brokers = realServers().kafkaBrokers;
  const dirs = [
    await mkdtemp(join(tmpdir(), 'sesame-outage-')),
    await mkdtemp(join(tmpdir(), 'sesame-outage-')),
  ];
  const topic = `events.outage.${randomUUID()}`;
  const opts: KafkaEventBusOptions = {
    brokers,
    clientId: `outage-${randomUUID()}`,
    outboxDir: dirs[0]!,
    logger,
    sendTimeoutMs: 1_000,
  };

  const sent: string[] = [];
  const seq = new Map<string, number>();
  const round = (): OutgoingEvent[] =>
    KEYS.map((key) => {
      const n = (seq.get(key) ?? 0) + 1;
      seq.set(key, n);
      sent.push(`${key}:${n}`);
      return { key, value: Buffer.from(`${key}:${n}`), headers: { key } };
    });
  const publishTimed = async (bus: KafkaEventBus) => {
    const t0 = Date.now();
    await bus.publisher.publish(topic, round());
    return Date.now() - t0;
  };

  const consumerBus = await KafkaEventBus.create({
    ...opts,
    clientId: `${opts.clientId}-c`,
    outboxDir: dirs[1]!,
  });
  await consumerBus.ensureTopics([topic]);
  const received: string[] = [];
  const consumer = consumerBus.consumer({ groupId: `g-${randomUUID()}`, topics: [topic] });
  await consumer.start(async (batch) => {
    for (const e of batch) {
      assert.equal(e.headers.key, e.key);
      received.push(e.value.toString());
    }
  });

  let bus = await KafkaEventBus.create(opts);
  let brokerDown = false;
  try {
    for (let i = 0; i < 4; i++) await publishTimed(bus);
    await eventually(
      async () => new Set(received).size,
      (n) => n >= sent.length,
      30_000,
    );
    await bus.publisher.flush(30_000);
    assert.equal(bus.publisher.pending(), 0);

    await infra.stop('kafka');
    brokerDown = true;
    const durations: number[] = [];
    for (let i = 0; i < 10; i++) durations.push(await publishTimed(bus));
    assert.ok(bus.publisher.pending() > 0, 'events wait in the outbox');
    const pendingAtClose = bus.publisher.pending();
    await bus.close();

    // A new publisher process over the same outbox: it finds the buffered events and keeps appending.
    bus = await KafkaEventBus.create(opts);
    assert.equal(bus.publisher.pending(), pendingAtClose, 'the outbox survived the publisher restart');
    for (let i = 0; i < 10; i++) durations.push(await publishTimed(bus));
    assert.ok(
      durations.every((ms) => ms < 2_000),
      `every publish during the outage resolves quickly: ${durations}`,
    );
    assert.equal(bus.publisher.pending(), pendingAtClose + 10 * KEYS.length);

    await infra.start('kafka');
    brokerDown = false;
    await bus.publisher.flush(120_000);
    assert.equal(bus.publisher.pending(), 0);
    await eventually(
      async () => new Set(received).size,
      (n) => n >= sent.length,
      120_000,
      200,
    );

    const firstDeliveries = [...new Set(received)];
    assert.deepEqual([...firstDeliveries].sort(), [...sent].sort(), 'every event arrived, none invented');
    for (const key of KEYS) {
      const order = firstDeliveries
        .filter((v) => v.startsWith(`${key}:`))
        .map((v) => Number(v.split(':')[1]));
      assert.deepEqual(
        order,
        order.map((_, i) => i + 1),
        `first deliveries of ${key} are in publish order`,
      );
    }
  } finally {
    if (brokerDown) await infra.start('kafka');
    await consumer.stop().catch(() => {});
    await bus.close();
    await consumerBus.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}, 180_000);
