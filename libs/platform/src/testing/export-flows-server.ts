import type * as grpc from '@grpc/grpc-js';
import { activitylogs } from '@sesame/proto';
import { GrpcServer, type PromiseClient, createClient, notImplemented } from '../grpc';
import { createLogger } from '../logger';

type ExportCall = grpc.ServerWritableStream<activitylogs.ExportFlowsRequest, unknown>;

/**
 * Tests only: an ActivityLogs gRPC server on a free local port whose ExportFlows is `exportFlows` (every other
 * method UNIMPLEMENTED), and a client to it. `stop` closes both.
 */
export async function exportFlowsServer(exportFlows: (call: ExportCall) => void) {
  const server = new GrpcServer({ logger: createLogger({ service: 'test', level: 'silent' }) });
  server.add<activitylogs.ActivityLogsServiceServer>(activitylogs.ActivityLogsServiceService, {
    queryActivityLogs: notImplemented,
    queryAdminLogs: notImplemented,
    listFlows: notImplemented,
    getFlow: notImplemented,
    exportFlows,
    countFlows: notImplemented,
    eraseFlows: notImplemented,
    listAttemptedEmails: notImplemented,
  });
  const port = await server.start(0, '127.0.0.1');
  const client: PromiseClient<activitylogs.ActivityLogsServiceClient> = createClient(
    activitylogs.ActivityLogsServiceClient,
    `127.0.0.1:${port}`,
  );
  return {
    client,
    async stop() {
      client.close();
      await server.stop(1000);
    },
  };
}

/** A record of the export tests: only what they look at set. */
export const exportedFlow = (id: string, email?: string): activitylogs.ActivityLogRecord =>
  activitylogs.ActivityLogRecord.fromPartial({
    id,
    applicationId: 'app',
    businessUnit: 't',
    timestamp: 1,
    email,
  });
