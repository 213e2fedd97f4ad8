import assert from 'node:assert/strict';
import type * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  GrpcServer,
  GrpcStatus,
  type PromiseClient,
  createClient,
  createLogger,
  isGrpcStatus,
  notImplemented,
} from '@sesame/platform';
import { activitylogs } from '@sesame/proto';
import { supportFlowsPeer } from './peers';

describe('supportFlowsPeer: the export stream', () => {
  const server = new GrpcServer({ logger: createLogger({ service: 'test', level: 'silent' }) });
  let client: PromiseClient<activitylogs.ActivityLogsServiceClient>;
  let cancelled: Promise<void>;
  const flow = (id: string, email?: string) =>
    activitylogs.ActivityLogRecord.fromPartial({ id, applicationId: 'app', businessUnit: 't', email });

  beforeAll(async () => {
    server.add<activitylogs.ActivityLogsServiceServer>(activitylogs.ActivityLogsServiceService, {
      queryActivityLogs: notImplemented,
      queryAdminLogs: notImplemented,
      listFlows: notImplemented,
      getFlow: notImplemented,
      exportFlows: (call: grpc.ServerWritableStream<activitylogs.ExportFlowsRequest, unknown>) => {
        if (call.request.tenantId === 'endless') {
          cancelled = new Promise((resolve) => call.on('cancelled', () => resolve()));
          const more = () => {
            while (call.write({ flows: [flow('again')] }));
            call.once('drain', more);
          };
          more();
          return;
        }
        call.write({ flows: [flow('f2'), flow('f1', 'a@example.com')] });
        call.write({ flows: [flow('f0')] });
        call.end();
      },
    });
    const port = await server.start(0, '127.0.0.1');
    client = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${port}`);
  });
  afterAll(async () => {
    client.close();
    await server.stop(1000);
  });

  it('yields each message decoded, in order', async () => {
    const got: string[] = [];
    for await (const m of supportFlowsPeer(client).exportFlows({ tenantId: 't' }))
      got.push(...m.flows.map((f) => `${f.id}:${f.email ?? '-'}`));
    assert.deepEqual(got, ['f2:-', 'f1:a@example.com', 'f0:-']);
  });

  it('leaving the loop early cancels the call', async () => {
    let seen = 0;
    for await (const _ of supportFlowsPeer(client).exportFlows({ tenantId: 'endless' })) {
      if (++seen === 3) break;
    }
    await cancelled;
    assert.equal(seen, 3);
  });

  it('an activity log that does not answer is UNAVAILABLE before any message', async () => {
    const down = createClient(activitylogs.ActivityLogsServiceClient, '127.0.0.1:1');
    try {
      const got: unknown[] = [];
      await assert.rejects(
        (async () => {
          for await (const m of supportFlowsPeer(down).exportFlows({ tenantId: 't' })) got.push(m);
        })(),
        (err) => isGrpcStatus(err, GrpcStatus.UNAVAILABLE),
      );
      assert.equal(got.length, 0);
    } finally {
      down.close();
    }
  });
});
