import { type Connection, connectMongo } from '@sesame/mongo';
import { type PromiseClient, createClient, runStandalone } from '@sesame/platform';
import { activitylogs } from '@sesame/proto';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { createActivityLogService } from '../service';

export interface RunningActivityLog {
  httpUrl: string;
  client: PromiseClient<activitylogs.ActivityLogsServiceClient>;
  /** Closes the client and stops the service. */
  stop(): Promise<void>;
}

/** The service as it runs, on ephemeral ports, with an ActivityLogs client of its gRPC port. */
export async function runActivityLog(
  ...[config, deps]: Parameters<typeof createActivityLogService>
): Promise<RunningActivityLog> {
  const mod = await createActivityLogService(config, deps);
  const running = await runStandalone(mod, {
    httpPort: 0,
    grpcPort: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 2000,
  });
  const client = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${running.grpcPort}`);
  return {
    httpUrl: `http://127.0.0.1:${running.httpPort}`,
    client,
    async stop() {
      client.close();
      await running.stop();
    },
  };
}

/** A connection to a database of this test's own on the shared Mongo-wire server (`name`), emptied first. */
export async function emptyDatabase(name: string): Promise<{ url: string; conn: Connection }> {
  const url = isolatedMongoUrl(realServers().mongoUrl, name);
  const conn = await connectMongo(url, { appName: name });
  await conn.dropDatabase();
  return { url, conn };
}
