import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  GrpcServer,
  GrpcStatus,
  type PromiseClient,
  createClient,
  createLogger,
  isGrpcStatus,
} from '@sesame/platform';
import { activitylogs } from '@sesame/proto';
import { MemoryActivityLogRepository } from '../repositories/activity-logs.memory';
import { MemoryAdminLogRepository } from '../repositories/admin-logs.memory';
import { adminEvent, authenticationFlow, flowEvent } from '../testing/fixtures';
import { activityLogsGrpc } from './activity-logs.server';

const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

describe('ActivityLogs gRPC', () => {
  const activityLogs = new MemoryActivityLogRepository();
  const adminLogs = new MemoryAdminLogRepository();
  const server = new GrpcServer({ logger: createLogger({ service: 'test', level: 'silent' }) });
  let client: PromiseClient<activitylogs.ActivityLogsServiceClient>;

  beforeAll(async () => {
    server.add<activitylogs.ActivityLogsServiceServer>(
      activitylogs.ActivityLogsServiceService,
      activityLogsGrpc({ activityLogs, adminLogs }),
    );
    const port = await server.start(0, '127.0.0.1');
    client = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${port}`);
    const many = Array.from({ length: 150 }, (_, i) => flowEvent({ flowId: `p${i}`, timestamp: T0 + i }));
    await activityLogs.applyFlowEvents([...many, ...authenticationFlow('full', T0 + 1000)]);
    await adminLogs.append(
      Array.from({ length: 400 }, (_, i) => adminEvent({ id: `a${i}`, timestamp: T0 + i })),
    );
  });
  afterAll(async () => {
    client.close();
    await server.stop(1000);
  });

  const activity = (over: Partial<activitylogs.QueryActivityLogsRequest> = {}) =>
    client.queryActivityLogs({
      tenantId: 'tenant-a',
      appId: 'app-1',
      timeStart: 0,
      timeEnd: T0 * 2,
      pageSize: 0,
      skip: 0,
      ...over,
    });

  it('returns records as ActivityLogRecord messages, with details as a struct', async () => {
    const res = await activity({ pageSize: 1 });
    const r = res.activityLogs[0]!;
    assert.equal(r.id, 'full');
    assert.equal(r.businessUnit, 'tenant-a');
    assert.equal(r.applicationId, 'app-1');
    assert.equal(r.isNewAuthenticationDeviceForRp, false);
    assert.deepEqual(r.accessingDeviceLocation, {
      lat: 52.37,
      lng: 4.89,
      city: 'Amsterdam',
      country: 'NL',
      state: undefined,
      source: 'ip',
    });
    assert.deepEqual(r.events[2]?.details, {
      action: 'desktop_consent',
      clientIp: '203.0.113.7',
      screen: 'consent',
      attempt: 1,
    });
  });

  it('pages 100 records by default and at most 5000', async () => {
    assert.equal((await activity()).activityLogs.length, 100);
    assert.equal((await activity({ pageSize: 5000 })).activityLogs.length, 151);
    await assert.rejects(activity({ pageSize: 5001 }), (e) => isGrpcStatus(e, GrpcStatus.INVALID_ARGUMENT));
  });

  it('refuses an empty or inverted window and a missing tenant', async () => {
    await assert.rejects(activity({ timeStart: 5, timeEnd: 5 }), (e) =>
      isGrpcStatus(e, GrpcStatus.INVALID_ARGUMENT),
    );
    await assert.rejects(activity({ tenantId: '' }), (e) => isGrpcStatus(e, GrpcStatus.INVALID_ARGUMENT));
  });

  it('admin logs: take defaults to 300, count is returned, total is the whole window', async () => {
    const res = await client.queryAdminLogs({
      tenantId: 'tenant-a',
      fromTime: T0,
      toTime: T0 + DAY,
      skip: 0,
      take: 0,
    });
    assert.equal(res.count, 300);
    assert.equal(res.total, 400);
    assert.equal(res.events[0]?.id, 'a399');
    assert.equal(res.events[0]?.timestampMs, T0 + 399);
    assert.deepEqual(res.events[0]?.data, { appId: 'app-1', appName: 'Shop' });
  });

  it('admin logs: refuses a span over 30 days, take over 500, skip over 1000', async () => {
    const base = { tenantId: 'tenant-a', fromTime: T0, toTime: T0 + DAY, skip: 0, take: 10 };
    const refused = (e: unknown) => isGrpcStatus(e, GrpcStatus.INVALID_ARGUMENT);
    await assert.rejects(client.queryAdminLogs({ ...base, toTime: T0 + 30 * DAY + 1 }), refused);
    await assert.rejects(client.queryAdminLogs({ ...base, take: 501 }), refused);
    await assert.rejects(client.queryAdminLogs({ ...base, skip: 1001 }), refused);
    assert.equal((await client.queryAdminLogs({ ...base, toTime: T0 + 30 * DAY })).total, 400);
  });
});
