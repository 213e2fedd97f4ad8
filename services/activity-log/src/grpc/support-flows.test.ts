import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
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

const T0 = 1_700_000_000_000;
const invalid = (e: unknown) => isGrpcStatus(e, GrpcStatus.INVALID_ARGUMENT);

describe('ActivityLogs gRPC: support reads (ListFlows, GetFlow, ExportFlows)', () => {
  const activityLogs = new MemoryActivityLogRepository();
  let now = T0 + 10_000;
  const server = new GrpcServer({ logger: createLogger({ service: 'test', level: 'silent' }) });
  let client: PromiseClient<activitylogs.ActivityLogsServiceClient>;

  beforeAll(async () => {
    server.add<activitylogs.ActivityLogsServiceServer>(
      activitylogs.ActivityLogsServiceService,
      activityLogsGrpc(
        { activityLogs, adminLogs: new MemoryAdminLogRepository() },
        { clock: { now: () => now } },
      ),
    );
    const port = await server.start(0, '127.0.0.1');
    client = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${port}`);
    const many = Array.from({ length: 250 }, (_, i) =>
      flowEvent({ tenantId: 'tenant-a', flowId: `p${String(i).padStart(3, '0')}`, timestamp: T0 + i }),
    );
    await activityLogs.applyFlowEvents([
      ...many,
      flowEvent({
        tenantId: 'tenant-a',
        flowId: 'who',
        userId: 'u1',
        email: 'alice@example.com',
        timestamp: T0 - 5,
      }),
      flowEvent({ tenantId: 'tenant-b', flowId: 'theirs', userId: 'u1', timestamp: T0 }),
    ]);
  });
  afterAll(async () => {
    client.close();
    await server.stop(1000);
  });

  const exported = (request: Partial<activitylogs.ExportFlowsRequest>) =>
    new Promise<string[]>((resolve, reject) => {
      const ids: string[] = [];
      const call = client.raw.exportFlows({ tenantId: 'tenant-a', ...request });
      call.on('data', (m: activitylogs.ExportFlowsResponse) => ids.push(...m.flows.map((f) => f.id)));
      call.on('error', reject);
      call.on('end', () => resolve(ids));
    });

  it('pages with an opaque cursor to the last page, each record once, newest first', async () => {
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const page = await client.listFlows({ tenantId: 'tenant-a', limit: 100, cursor });
      seen.push(...page.flows.map((f) => f.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.equal(seen.length, 251);
    assert.equal(new Set(seen).size, 251);
    assert.deepEqual(seen.slice(0, 2), ['p249', 'p248']);
    assert.equal(seen.at(-1), 'who');
  });

  it('carries the email for support, while the spec query never does', async () => {
    const { flow } = await client.getFlow({ tenantId: 'tenant-a', flowId: 'who' });
    assert.equal(flow?.email, 'alice@example.com');
    assert.equal(flow?.userId, 'u1');
    const spec = await client.queryActivityLogs({
      tenantId: 'tenant-a',
      appId: 'app-1',
      timeStart: 0,
      timeEnd: T0 * 2,
      pageSize: 5000,
      skip: 0,
      userId: 'u1',
    });
    assert.deepEqual(
      spec.activityLogs.map((r) => [r.id, r.email]),
      [['who', undefined]],
    );
  });

  it("another tenant's flow is NOT_FOUND like an unknown one; its records are in no page or export", async () => {
    for (const flowId of ['theirs', 'nope']) {
      await assert.rejects(client.getFlow({ tenantId: 'tenant-a', flowId }), (e) =>
        isGrpcStatus(e, GrpcStatus.NOT_FOUND),
      );
    }
    const page = await client.listFlows({
      tenantId: 'tenant-a',
      limit: 200,
      filter: { userId: 'u1' },
      cursor: '',
    });
    assert.deepEqual(
      page.flows.map((f) => f.id),
      ['who'],
    );
    assert.deepEqual(await exported({ tenantId: 'tenant-c' }), []);
    assert.deepEqual(await exported({ filter: { userId: 'u1' } }), ['who']);
  });

  it('refuses a forged cursor, a limit over 200, a bad filter and a missing tenant', async () => {
    await assert.rejects(client.listFlows({ tenantId: 'tenant-a', limit: 10, cursor: 'x!y' }), invalid);
    const forged = Buffer.from(JSON.stringify({ $gt: '' })).toString('base64url');
    await assert.rejects(client.listFlows({ tenantId: 'tenant-a', limit: 10, cursor: forged }), invalid);
    await assert.rejects(client.listFlows({ tenantId: 'tenant-a', limit: 201, cursor: '' }), invalid);
    await assert.rejects(
      client.listFlows({ tenantId: 'tenant-a', limit: 10, filter: { from: 5, to: 5 }, cursor: '' }),
      invalid,
    );
    await assert.rejects(
      client.listFlows({
        tenantId: 'tenant-a',
        limit: 10,
        filter: { userId: 'x'.repeat(10_240) },
        cursor: '',
      }),
      invalid,
    );
    await assert.rejects(client.listFlows({ tenantId: '', limit: 10, cursor: '' }), invalid);
    await assert.rejects(exported({ filter: { status: '' } }), invalid);
  });

  it('exports the snapshot at its start, and honours a slow reader (backpressure) to the end', async () => {
    now = T0 + 10_000;
    const call = client.raw.exportFlows({ tenantId: 'tenant-a' });
    const ids: string[] = [];
    call.pause();
    // Flows that start after the export began are not in it, whenever they are stored.
    await activityLogs.applyFlowEvents([
      flowEvent({ tenantId: 'tenant-a', flowId: 'later', timestamp: T0 + 20_000 }),
    ]);
    await new Promise((r) => setTimeout(r, 100));
    call.resume();
    for await (const m of call as AsyncIterable<activitylogs.ExportFlowsResponse>)
      ids.push(...m.flows.map((f) => f.id));
    assert.equal(ids.length, 251);
    assert.equal(new Set(ids).size, 251);
    assert.equal(ids.includes('later'), false);
    now = T0 + 30_000;
    assert.equal((await exported({})).length, 252, 'a later export has it');
  });
});

describe('ActivityLogs gRPC: ExportFlows backpressure', () => {
  // grpc-js's client queues whatever arrives even while paused, so a paused client cannot prove the server
  // waits: the handler is driven here by a stream that takes writes only while the test lets it, as a slow
  // peer's full HTTP/2 window makes grpc-js's server stream do (write returns false until 'drain').
  it('reads no further batch while the stream does not take what was written, and resumes on drain', async () => {
    const repo = new MemoryActivityLogRepository();
    await repo.applyFlowEvents(
      Array.from({ length: 5000 }, (_, i) =>
        flowEvent({ tenantId: 't', flowId: `b${i}`, timestamp: T0 + i }),
      ),
    );
    let batches = 0;
    const counting = Object.assign(Object.create(repo), {
      exportFlows: async function* (q: Parameters<typeof repo.exportFlows>[0]) {
        for await (const batch of repo.exportFlows(q)) {
          batches++;
          yield batch;
        }
      },
    });
    const call = Object.assign(new EventEmitter(), {
      request: { tenantId: 't' },
      full: true,
      written: 0,
      ended: false,
      // The handler writes each message encoded (GrpcServer passes a server stream's bytes through as they are).
      write(m: Buffer) {
        this.written += activitylogs.ExportFlowsResponse.decode(m).flows.length;
        return !this.full;
      },
      end() {
        this.ended = true;
      },
    });
    const ended = new Promise<void>((resolve) => {
      const end = call.end.bind(call);
      call.end = () => {
        end();
        resolve();
      };
    });
    const handler = activityLogsGrpc({ activityLogs: counting, adminLogs: new MemoryAdminLogRepository() })
      .exportFlows as unknown as (c: typeof call) => void;
    handler(call);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(batches, 1, 'one batch read before the first write found the stream full');
    assert.equal(call.written, 25, 'nothing more written until the stream drains');
    assert.equal(call.listenerCount('drain'), 1);
    call.full = false;
    call.emit('drain');
    await ended;
    assert.equal(call.written, 5000);
    assert.equal(batches, 10);
    assert.equal(call.listenerCount('drain'), 0, 'no listener left behind');
  });
});
