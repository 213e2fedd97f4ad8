import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus, readTopicUntil } from '@sesame/events';
import { createFlowEvents, createSigninFunnel } from '@sesame/flow-events';
import { createLogger } from '@sesame/platform';
import { events, topics } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { MemoryActivityLogRepository } from '../repositories/activity-logs.memory';
import { createFlowEventsConsumer, flowEventsHandler } from './flow-events.consumer';

const logger = createLogger({ service: 'activity-log-test', level: 'silent' });
const T0 = 1_700_000_000_000;
const query = (repo: MemoryActivityLogRepository) =>
  repo.query({ tenantId: 'tenant-a', appId: 'app-1', timeStart: 0, timeEnd: T0 * 2, skip: 0, pageSize: 100 });

const dlqOf = (bus: MemoryEventBus, topic: string, n: number) =>
  readTopicUntil(bus, topic, n, { timeoutMs: 5000 });

describe('flow-events consumer', () => {
  it('folds published flow events into one record per flow', async () => {
    const bus = new MemoryEventBus();
    const repo = new MemoryActivityLogRepository();
    const flowEvents = createFlowEvents({ publisher: bus.publisher, logger });
    const consumer = createFlowEventsConsumer({ bus, repository: repo, logger });
    await consumer.start();
    const base = { tenantId: 'tenant-a', appId: 'app-1', clientIp: '203.0.113.7' } as const;
    await flowEvents.record({ ...base, flowId: 'f1', timestamp: T0, action: 'auth_start_oidc' });
    await flowEvents.record({ ...base, flowId: 'f2', timestamp: T0 + 5, action: 'auth_start_oidc' });
    await flowEvents.record({
      ...base,
      flowId: 'f1',
      timestamp: T0 + 10,
      action: 'auth_complete',
      status: 'success',
    });
    const records = await eventually(
      () => query(repo),
      (rs) => rs.reduce((n, r) => n + r.events.length, 0) >= 3,
    );
    await consumer.stop();
    assert.deepEqual(
      records.map((r) => [r.id, r.events.map((e) => e.payload.details.action), r.status]),
      [
        ['f2', ['auth_start_oidc'], undefined],
        ['f1', ['auth_start_oidc', 'auth_complete'], 'success'],
      ],
    );
  });

  it('feeds the sign-in funnel every event it wrote, once', async () => {
    const bus = new MemoryEventBus();
    const repo = new MemoryActivityLogRepository();
    const stages: string[] = [];
    const funnel = createSigninFunnel({
      counters: { stage: ({ stage, method }) => stages.push(`${stage}:${method}`), untracked: () => {} },
    });
    const flowEvents = createFlowEvents({ publisher: bus.publisher, logger });
    const consumer = createFlowEventsConsumer({ bus, repository: repo, logger, funnel });
    await consumer.start();
    const base = { tenantId: 'tenant-a', appId: 'app-1', clientIp: '203.0.113.7', flowId: 'f9' } as const;
    await flowEvents.record({ ...base, timestamp: T0, action: 'auth_start_oidc' });
    await flowEvents.record({
      ...base,
      timestamp: T0 + 1,
      action: 'biometric_verification_success',
      authMethodType: 'fido2',
    });
    await flowEvents.record({ ...base, timestamp: T0 + 2, action: 'auth_complete', status: 'success' });
    await eventually(
      () => query(repo),
      (rs) => rs.reduce((n, r) => n + r.events.length, 0) >= 3,
    );
    await consumer.stop();
    assert.deepEqual(stages, ['started:none', 'identified:fido2', 'proven:fido2', 'completed:fido2']);
    assert.equal(funnel.open, 0);
  });

  it('dead-letters undecodable and invalid events with the reason and source, and carries on', async () => {
    const bus = new MemoryEventBus();
    const repo = new MemoryActivityLogRepository();
    const consumer = createFlowEventsConsumer({ bus, repository: repo, logger });
    await consumer.start();
    const garbage = Buffer.from([0xff, 0xff, 0xff, 0xff]);
    const noFlow = events.FlowEvent.encode(
      events.FlowEvent.fromPartial({ eventId: 'x', tenantId: 't' }),
    ).finish();
    await bus.publisher.publish(topics.flowEvents, [
      { key: 'k', value: garbage, headers: { origin: 'test' } },
      { key: 'k', value: noFlow },
    ]);
    await createFlowEvents({ publisher: bus.publisher, logger }).record({
      flowId: 'k',
      tenantId: 'tenant-a',
      appId: 'app-1',
      timestamp: T0,
      action: 'auth_start_oidc',
      clientIp: '203.0.113.7',
    });
    const records = await eventually(
      () => query(repo),
      (rs) => rs.length === 1,
    );
    await consumer.stop();
    assert.deepEqual(
      records.map((r) => r.id),
      ['k'],
    );
    const dlq = await dlqOf(bus, topics.flowEventsDeadLetter, 2);
    assert.equal(dlq.length, 2);
    assert.deepEqual(dlq[0]!.value, garbage);
    assert.equal(dlq[0]!.headers['dlq-reason'], 'decode_failed');
    assert.equal(dlq[0]!.headers['dlq-source-topic'], topics.flowEvents);
    assert.equal(dlq[0]!.headers['dlq-source-offset'], '0');
    assert.equal(dlq[0]!.headers.origin, 'test');
    assert.equal(dlq[1]!.headers['dlq-reason'], 'validation_failed');
    assert.match(dlq[1]!.headers['dlq-error'] ?? '', /flowId/);
  });

  it('a batch that fails after its write is redelivered without duplicating anything', async () => {
    const bus = new MemoryEventBus();
    const repo = new MemoryActivityLogRepository();
    const real = flowEventsHandler({ bus, repository: repo, logger });
    let deliveries = 0;
    const consumer = createFlowEventsConsumer({ bus, repository: repo, logger });
    await consumer.start(async (batch) => {
      await real(batch);
      if (++deliveries === 1) throw new Error('crash after the write, before the commit');
    });
    const flowEvents = createFlowEvents({ publisher: bus.publisher, logger });
    for (let i = 0; i < 5; i++) {
      await flowEvents.record({
        flowId: 'f',
        tenantId: 'tenant-a',
        appId: 'app-1',
        timestamp: T0 + i,
        action: 'auth_start_oidc',
        clientIp: '203.0.113.7',
      });
    }
    await eventually(
      async () => deliveries,
      (n) => n >= 2,
      5000,
    );
    await eventually(
      () => query(repo),
      (rs) => rs[0]?.events.length === 5,
      5000,
    );
    await consumer.stop();
    const [record] = await query(repo);
    assert.ok(deliveries >= 2, 'the failed batch was delivered again');
    assert.equal(record?.events.length, 5);
    assert.equal(new Set(record?.events.map((e) => e.id)).size, 5);
  });
});
