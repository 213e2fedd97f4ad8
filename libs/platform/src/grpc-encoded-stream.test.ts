import assert from 'node:assert/strict';
import type * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { activitylogs } from '@sesame/proto';
import { GrpcServer, type PromiseClient, createClient, notImplemented } from './grpc';
import { createLogger } from './logger';

describe('GrpcServer: a server stream may write messages it has already encoded', () => {
  const server = new GrpcServer({ logger: createLogger({ service: 'test', level: 'silent' }) });
  let client: PromiseClient<activitylogs.ActivityLogsServiceClient>;
  const flow = (id: string): activitylogs.ActivityLogRecord =>
    activitylogs.ActivityLogRecord.fromPartial({ id, applicationId: 'app', businessUnit: 't', timestamp: 1 });

  beforeAll(async () => {
    server.add<activitylogs.ActivityLogsServiceServer>(activitylogs.ActivityLogsServiceService, {
      queryActivityLogs: notImplemented,
      queryAdminLogs: notImplemented,
      listFlows: notImplemented,
      getFlow: notImplemented,
      exportFlows: (call: grpc.ServerWritableStream<unknown, unknown>) => {
        const encoded = activitylogs.ExportFlowsResponse.encode({ flows: [flow('encoded')] }).finish();
        call.write(Buffer.from(encoded));
        call.write({ flows: [flow('object')] });
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

  it('sends the bytes as they are, and a message object encoded as before', async () => {
    const received: string[] = [];
    for await (const m of client.raw.exportFlows({
      tenantId: 't',
    }) as AsyncIterable<activitylogs.ExportFlowsResponse>)
      received.push(...m.flows.map((f) => f.id));
    assert.deepEqual(received, ['encoded', 'object']);
  });
});
