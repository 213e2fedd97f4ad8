import { type IncomingMessage, type Server, createServer } from 'node:http';
import { GrpcServer, type PromiseClient, createClient, tracedListener } from '@sesame/platform';
import { directory } from '@sesame/proto';
import type { Logger } from 'pino';
import type { EventBus } from '../port';

export interface TracedChain {
  http: Server;
  grpcServer: GrpcServer;
  client: PromiseClient<directory.DirectoryServiceClient>;
  stop(): Promise<void>;
}

/**
 * The chain the tracing tests drive, real pieces end to end: an HTTP server behind tracedListener whose every
 * request makes one Directory.GetClient call over gRPC (client id from `clientIdOf`), and that method
 * publishes one event on `bus` (topic `t`) before it answers. `onCall` sees each call's traceparent metadata.
 */
export async function startTracedChain(opts: {
  bus: EventBus;
  logger: Logger;
  clientIdOf: (req: IncomingMessage) => string;
  onCall?: (traceparent: string | undefined) => void;
}): Promise<TracedChain> {
  const grpcServer = new GrpcServer({ logger: opts.logger });
  grpcServer.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, {
    getClient: async ({ clientId }, call) => {
      opts.onCall?.(call.metadata.get('traceparent')[0]?.toString());
      await opts.bus.publisher.publish('t', [{ key: clientId, value: Buffer.from('x') }]);
      return { client: directory.Client.fromPartial({ clientId }) };
    },
    authenticateClient: async () => ({}),
    authenticateApiCredentials: async () => ({ tenantId: 't', credentialsId: 'c' }),
    getBranding: async () => ({ mailTemplates: [] }),
  });
  const port = await grpcServer.start(0, '127.0.0.1');
  const client = createClient(directory.DirectoryServiceClient, `127.0.0.1:${port}`);
  const http = createServer(
    tracedListener((req, res) => {
      void client.getClient({ clientId: opts.clientIdOf(req) }).then(() => res.end('ok'));
    }),
  ).listen(0, '127.0.0.1');
  await new Promise((r) => http.once('listening', r));
  return {
    http,
    grpcServer,
    client,
    async stop() {
      client.close();
      await grpcServer.stop(1000);
      http.close();
    },
  };
}
