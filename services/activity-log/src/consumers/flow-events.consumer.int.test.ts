import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TopicProgress } from '@sesame/events';
import { type FlowEventInput, createFlowEvents } from '@sesame/flow-events';
import { eventually } from '@sesame/testing';
import type { ActivityRecord } from '../domain/activity-record';
import { type RealPipeline, readTopic, realPipeline, silentLogger } from '../testing/real-kafka';
import { createFlowEventsConsumer, flowEventsHandler } from './flow-events.consumer';

const T0 = 1_700_000_000_000;
const actions = [
  'auth_start_oidc',
  'desktop_login_page',
  'desktop_consent',
  'user_scan_qr',
  'auth_complete',
] as const;

/** n flows of 5 steps each, interleaved as concurrent logins would be. */
function steps(n: number, prefix: string): FlowEventInput[] {
  const out: FlowEventInput[] = [];
  for (let step = 0; step < 5; step++) {
    for (let f = 0; f < n; f++) {
      out.push({
        flowId: `${prefix}-${f}`,
        eventId: `${prefix}-${f}-${step}`,
        tenantId: 'tenant-a',
        appId: 'app-1',
        timestamp: T0 + f * 10_000 + step * 100,
        action: actions[step]!,
        clientIp: '203.0.113.7',
        ...(step === 1 ? { accessingDeviceLocation: { lat: 48.85, lng: 2.35, city: 'Paris' } } : {}),
        ...(step === 4
          ? { userId: `user-${f}`, status: 'success' as const, authMethodType: 'fido2' as const }
          : {}),
      });
    }
  }
  return out;
}

const allRecords = (p: RealPipeline) =>
  p.repository.query({
    tenantId: 'tenant-a',
    appId: 'app-1',
    timeStart: 0,
    timeEnd: T0 * 2,
    skip: 0,
    pageSize: 5000,
  });
const eventCount = (rs: ActivityRecord[]) => rs.reduce((n, r) => n + r.events.length, 0);

describe('flow-events consumer on Kafka and the Mongo-wire server', () => {
  let p: RealPipeline;
  beforeAll(async () => {
    p = await realPipeline('flow-events-consumer');
  });
  afterAll(() => p.close());

  it('folds events published through the library into one correct record per flow', async () => {
    const flowEvents = createFlowEvents({ publisher: p.bus.publisher, logger: silentLogger, topic: p.topic });
    for (const s of steps(20, 'lib')) await flowEvents.record(s);
    const consumer = createFlowEventsConsumer({ ...p, repository: p.repository, logger: silentLogger });
    await consumer.start();
    const records = await eventually(
      () => allRecords(p),
      (rs) => eventCount(rs) >= 100,
      60_000,
    );
    await consumer.stop();
    assert.equal(records.length, 20);
    assert.deepEqual(
      records.map((r) => r.id),
      Array.from({ length: 20 }, (_, i) => `lib-${19 - i}`),
    );
    for (const r of records) {
      const f = Number(r.id.split('-')[1]);
      assert.deepEqual(
        r.events.map((e) => e.payload.details.action),
        [...actions],
      );
      assert.equal(r.timestamp, T0 + f * 10_000);
      assert.equal(r.userId, `user-${f}`);
      assert.equal(r.status, 'success');
      assert.deepEqual(r.accessingDeviceLocation, { lat: 48.85, lng: 2.35, city: 'Paris' });
    }
  });

  it('a consumer killed mid-batch, after a partial write, loses nothing and duplicates nothing', async () => {
    await p.repository.model.collection.deleteMany({}); // keeps the indexes, which the write guard relies on
    const topic = `${p.topic}.kill`;
    await p.bus.ensureTopics([topic]);
    const flowEvents = createFlowEvents({ publisher: p.bus.publisher, logger: silentLogger, topic });
    for (const s of steps(60, 'kill')) await flowEvents.record(s);
    await p.bus.publisher.flush(30_000);
    const published = await p.bus.endOffsets(topic);

    const deps = { ...p, topic, repository: p.repository, logger: silentLogger };
    const first = createFlowEventsConsumer(deps);
    const real = flowEventsHandler(deps);
    let killed: Promise<void> | undefined;
    let halfWritten = 0;
    await first.start(async (batch) => {
      const half = batch.slice(0, Math.ceil(batch.length / 2));
      await real(half);
      halfWritten += half.length;
      killed ??= first.stop(); // the process dies here: the batch never resolves, its offsets are never committed
      throw new Error('killed');
    });
    await eventually(
      async () => killed !== undefined,
      (dead) => dead,
      60_000,
    );
    await killed;
    assert.ok(halfWritten > 0, 'the first consumer wrote part of a batch before it died');

    // The second consumer handles the topic up to where it ended after publishing: everything it will ever
    // write for these events is written then, and a duplicate would be in the store (no quiet period needed).
    const progress = new TopicProgress(topic, published);
    const second = createFlowEventsConsumer(deps);
    await second.start(async (batch) => {
      await real(batch);
      progress.record(batch);
    });
    await progress.reached(60_000).finally(() => second.stop());
    const final = await allRecords(p);
    assert.equal(final.length, 60);
    assert.equal(eventCount(final), 300);
    for (const r of final)
      assert.equal(new Set(r.events.map((e) => e.id)).size, 5, `${r.id} has 5 distinct events`);
  });

  it('sends a poison message to the dead-letter topic with its reason and source, and carries on', async () => {
    const topic = `${p.topic}.poison`;
    const deadLetterTopic = `${topic}.dlq`;
    await p.bus.ensureTopics([topic, deadLetterTopic]);
    const poison = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]); // wire type 7 does not exist: protobuf decode throws
    await p.bus.publisher.publish(topic, [{ key: 'poison-flow', value: poison }]);
    const flowEvents = createFlowEvents({ publisher: p.bus.publisher, logger: silentLogger, topic });
    await flowEvents.record({ ...steps(1, 'after-poison')[0]!, timestamp: T0 * 1.5 });
    const consumer = createFlowEventsConsumer({
      ...p,
      topic,
      deadLetterTopic,
      repository: p.repository,
      logger: silentLogger,
    });
    await consumer.start();
    const records = await eventually(
      () => allRecords(p),
      (rs) => rs.some((r) => r.id === 'after-poison-0'),
      60_000,
    );
    await consumer.stop();
    assert.ok(
      records.some((r) => r.id === 'after-poison-0'),
      'the event after the poison message was folded',
    );
    const [letter] = await readTopic(p.bus, deadLetterTopic, 1);
    assert.deepEqual(letter?.value, poison);
    assert.equal(letter?.key, 'poison-flow');
    assert.equal(letter?.headers['dlq-reason'], 'decode_failed');
    assert.equal(letter?.headers['dlq-source-topic'], topic);
    assert.equal(letter?.headers['dlq-source-offset'], '0');
    assert.ok(letter?.headers['dlq-source-partition']);
  });
});
