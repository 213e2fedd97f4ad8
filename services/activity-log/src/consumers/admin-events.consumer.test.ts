import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type DeliveredEvent, MemoryEventBus } from '@sesame/events';
import { createLogger } from '@sesame/platform';
import { events, topics } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { MemoryAdminLogRepository } from '../repositories/admin-logs.memory';
import { createAdminEventsConsumer } from './admin-events.consumer';

const logger = createLogger({ service: 'activity-log-test', level: 'silent' });
const T0 = 1_700_000_000_000;

const adminEvent = (id: string, overrides: Partial<events.AdminEvent> = {}) =>
  events.AdminEvent.encode(
    events.AdminEvent.fromPartial({
      id,
      activityType: 'administrator_create_application',
      adminEmail: 'admin@example.com',
      clientIp: '198.51.100.4',
      sessionId: 's-1',
      tenantId: 'tenant-a',
      timestampMs: T0,
      data: { appId: 'app-1', appName: 'Shop' },
      ...overrides,
    }),
  ).finish();

describe('admin-events consumer', () => {
  it('stores admin events once each (spec 2.5 shape) and dead-letters the unreadable one', async () => {
    const bus = new MemoryEventBus();
    const repo = new MemoryAdminLogRepository();
    const consumer = createAdminEventsConsumer({ bus, repository: repo, logger });
    await consumer.start();
    await bus.publisher.publish(topics.adminEvents, [
      { key: 'tenant-a', value: adminEvent('a1') },
      { key: 'tenant-a', value: adminEvent('a1') },
      { key: 'tenant-a', value: adminEvent('bad', { activityType: 'Not A Type!' }) },
      { key: 'tenant-a', value: adminEvent('a2', { timestampMs: T0 + 1 }) },
    ]);
    const q = () => repo.query({ tenantId: 'tenant-a', fromTime: 0, toTime: T0 * 2, skip: 0, take: 300 });
    const page = await eventually(q, (p) => p.total >= 2);
    const dlq: DeliveredEvent[] = [];
    const reader = bus.consumer({ groupId: 'dlq-reader', topics: [topics.adminEventsDeadLetter] });
    await reader.start(async (batch) => void dlq.push(...batch));
    await eventually(
      async () => dlq.length,
      (n) => n >= 1,
    );
    await Promise.all([reader.stop(), consumer.stop()]);
    assert.deepEqual(page.events[1], {
      id: 'a1',
      activityType: 'administrator_create_application',
      adminEmail: 'admin@example.com',
      clientIp: '198.51.100.4',
      sessionId: 's-1',
      tenantId: 'tenant-a',
      timestamp: T0,
      data: { appId: 'app-1', appName: 'Shop' },
    });
    assert.equal(page.total, 2);
    assert.equal(dlq.length, 1);
    assert.equal(dlq[0]!.headers['dlq-reason'], 'validation_failed');
    assert.match(dlq[0]!.headers['dlq-error'] ?? '', /activityType/);
  });
});
