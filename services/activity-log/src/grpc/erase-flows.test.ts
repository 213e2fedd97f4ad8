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
import { flowEvent } from '../testing/fixtures';
import { activityLogsGrpc } from './activity-logs.server';

const invalid = (e: unknown) => isGrpcStatus(e, GrpcStatus.INVALID_ARGUMENT);

describe('ActivityLogs gRPC: attempts by typed address (ListFlows filter, CountFlows, EraseFlows)', () => {
  const activityLogs = new MemoryActivityLogRepository();
  const server = new GrpcServer({ logger: createLogger({ service: 'test', level: 'silent' }) });
  let client: PromiseClient<activitylogs.ActivityLogsServiceClient>;

  beforeAll(async () => {
    server.add<activitylogs.ActivityLogsServiceServer>(
      activitylogs.ActivityLogsServiceService,
      activityLogsGrpc({ activityLogs, adminLogs: new MemoryAdminLogRepository() }),
    );
    const port = await server.start(0, '127.0.0.1');
    client = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${port}`);
    await activityLogs.applyFlowEvents([
      flowEvent({ tenantId: 'ta', flowId: 'g1', timestamp: 1, attemptedEmail: 'ghost@example.com' }),
      flowEvent({ tenantId: 'ta', flowId: 'g2', timestamp: 2, attemptedEmail: 'ghost@example.com' }),
      flowEvent({ tenantId: 'ta', flowId: 'u1', timestamp: 3, userId: 'u-1' }),
      flowEvent({ tenantId: 'tb', flowId: 'g3', timestamp: 3, attemptedEmail: 'ghost@example.com' }),
    ]);
  });
  afterAll(async () => {
    client.close();
    await server.stop(1000);
  });

  it('lists and counts by address; the support record carries it, the spec query never does', async () => {
    const filter = { attemptedEmail: 'ghost@example.com' };
    const page = await client.listFlows({ tenantId: 'ta', filter, limit: 10, cursor: '' });
    assert.deepEqual(
      page.flows.map((f) => [f.id, f.attemptedEmail]),
      [
        ['g2', 'ghost@example.com'],
        ['g1', 'ghost@example.com'],
      ],
    );
    assert.equal((await client.countFlows({ tenantId: 'ta', filter })).count, 2);
    assert.equal((await client.countFlows({ tenantId: 'tb', filter })).count, 1);
    const spec = await client.queryActivityLogs({
      tenantId: 'ta',
      appId: 'app-1',
      timeStart: 0,
      timeEnd: 10,
      pageSize: 10,
      skip: 0,
    });
    assert.equal(spec.activityLogs.length, 3);
    assert.ok(spec.activityLogs.every((r) => r.attemptedEmail === undefined));
  });

  it('refuses an empty erasure and bad members with INVALID_ARGUMENT', async () => {
    await assert.rejects(client.eraseFlows({ tenantId: 'ta' }), invalid);
    await assert.rejects(client.eraseFlows({ tenantId: 'ta', attemptedEmail: '' }), invalid);
    await assert.rejects(client.eraseFlows({ tenantId: '', attemptedEmail: 'x@example.com' }), invalid);
    await assert.rejects(
      client.countFlows({ tenantId: 'ta', filter: { attemptedEmail: 'x'.repeat(201) } }),
      invalid,
    );
  });

  it("erases an address's attempts in the named tenant only", async () => {
    const erased = await client.eraseFlows({ tenantId: 'ta', attemptedEmail: 'ghost@example.com' });
    assert.equal(erased.erased, 2);
    const filter = { attemptedEmail: 'ghost@example.com' };
    assert.equal((await client.countFlows({ tenantId: 'ta', filter })).count, 0);
    assert.equal((await client.countFlows({ tenantId: 'tb', filter })).count, 1);
    assert.equal((await client.eraseFlows({ tenantId: 'ta', userId: 'u-1' })).erased, 1);
  });
});
