import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { adminEvent } from '@sesame/activity-log-service/testing/fixtures';
import { type LogsHarness, assertNamesField, startLogsHarness } from '../testing/logs-harness';
import { ADMIN_LOGS_PATH, MAX_SPAN_MS, createAdminLogsRoutes } from './admin-logs';

const T0 = 1_700_000_000_000;

describe('GET /api/vbeta/mgmt/admin-logs', () => {
  let h: LogsHarness;
  beforeAll(async () => {
    h = await startLogsHarness((activityLogs) => createAdminLogsRoutes({ activityLogs }));
    await h.adminLogs.append([
      ...Array.from({ length: 1600 }, (_, i) =>
        adminEvent({ id: `a${String(i).padStart(4, '0')}`, timestamp: T0 + i }),
      ),
      adminEvent({ id: 'b-secret', tenantId: 'tenant-b', timestamp: T0 + 5 }),
    ]);
  });
  afterAll(() => h.close());

  const valid = { fromTime: String(T0), toTime: String(T0 + 86_400_000), credentialsId: 'cred-a' };
  const get = async (params: Record<string, string | string[] | undefined>) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params))
      for (const one of v === undefined ? [] : [v].flat()) qs.append(k, one);
    const res = await fetch(`${h.url}${ADMIN_LOGS_PATH}?${qs}`);
    // biome-ignore lint/suspicious/noExplicitAny: JSON response bodies, asserted member by member
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('answers {status, data: {count, total, events}} with spec 2.5 events, newest first, take 300 by default', async () => {
    const { status, body } = await get(valid);
    assert.equal(status, 200);
    assert.equal(body.status, 'success');
    assert.equal(body.data.count, 300);
    assert.equal(body.data.total, 1600);
    assert.equal(body.data.events.length, 300);
    assert.deepEqual(body.data.events[0], {
      id: 'a1599',
      activityType: 'administrator_create_application',
      adminEmail: 'admin@example.com',
      clientIp: '198.51.100.4',
      sessionId: 'session-1',
      tenantId: 'tenant-a',
      timestamp: T0 + 1599,
      data: { appId: 'app-1', appName: 'Shop' },
    });
  });

  it('accepts the limits themselves: take 1 and 500, skip 1000, a span of exactly 30 days', async () => {
    assert.equal((await get({ ...valid, take: '500' })).body.data.count, 500);
    assert.equal((await get({ ...valid, take: '1' })).body.data.count, 1);
    const skipped = await get({ ...valid, skip: '1000', take: '2' });
    assert.deepEqual(
      skipped.body.data.events.map((e: { id: string }) => e.id),
      ['a0599', 'a0598'],
    );
    assert.equal((await get({ ...valid, toTime: String(T0 + MAX_SPAN_MS) })).status, 200);
  });

  it("never shows another tenant's events", async () => {
    const { body } = await get({ ...valid, take: '500', skip: '1000' });
    assert.ok(body.data.events.every((e: { tenantId: string }) => e.tenantId === 'tenant-a'));
    assert.equal(body.data.total, 1600);
  });

  it('refuses a credentialsId other than the token’s with 403', async () => {
    const { status, body } = await get({ ...valid, credentialsId: 'cred-other' });
    assert.equal(status, 403);
    assert.equal(body.error.code, 'forbidden');
  });

  const violations: [string, Record<string, string | string[] | undefined>, string][] = [
    ['fromTime missing', { fromTime: undefined }, 'fromTime'],
    ['fromTime not a number', { fromTime: 'yesterday' }, 'fromTime'],
    ['fromTime negative', { fromTime: '-1' }, 'fromTime'],
    ['toTime missing', { toTime: undefined }, 'toTime'],
    ['toTime equal to fromTime', { toTime: String(T0) }, 'toTime'],
    ['the span over 30 days', { toTime: String(T0 + MAX_SPAN_MS + 1) }, 'toTime'],
    ['credentialsId missing', { credentialsId: undefined }, 'credentialsId'],
    ['skip over 1000', { skip: '1001' }, 'skip'],
    ['skip negative', { skip: '-1' }, 'skip'],
    ['skip fractional', { skip: '1.5' }, 'skip'],
    ['take 0', { take: '0' }, 'take'],
    ['take over 500', { take: '501' }, 'take'],
    ['take given twice', { take: ['5', '6'] }, 'take'],
  ];
  for (const [what, change, field] of violations) {
    it(`400 names ${field} when ${what}`, async () => {
      assertNamesField(await get({ ...valid, ...change }), field);
    });
  }
});
