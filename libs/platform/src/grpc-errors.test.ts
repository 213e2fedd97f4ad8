import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { directory } from '@sesame/proto';
import { GrpcServer, type PromiseClient, createClient } from './grpc';
import type { Logger } from './logger';
import { StoreUnavailableError } from './unavailable';

/** A logger that keeps what it was asked to log, to tell a handled outage from an "unhandled" error. */
function recordingLogger() {
  const lines: Array<{ level: string; msg: string }> = [];
  const at = (level: string) => (_obj: unknown, msg?: string) => lines.push({ level, msg: msg ?? '' });
  const logger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
  } as unknown as Logger;
  return { logger, lines };
}

describe('gRPC server: downstream outages pass through as themselves', () => {
  const { logger, lines } = recordingLogger();
  const server = new GrpcServer({ logger });
  let client: PromiseClient<directory.DirectoryServiceClient>;
  let closedPortClient: PromiseClient<directory.DirectoryServiceClient>;
  let slowClient: PromiseClient<directory.DirectoryServiceClient>;
  let slowServer: GrpcServer;

  beforeAll(async () => {
    slowServer = new GrpcServer({ logger });
    slowServer.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, {
      getClient: () => new Promise((r) => setTimeout(() => r({}), 2000)),
      authenticateClient: async () => ({}),
      authenticateApiCredentials: async () => ({ tenantId: 't', credentialsId: 'c' }),
      getBranding: async () => ({ mailTemplates: [] }),
    });
    const slowPort = await slowServer.start(0, '127.0.0.1');
    slowClient = createClient(directory.DirectoryServiceClient, `127.0.0.1:${slowPort}`, { deadlineMs: 200 });
    // Port 1 on loopback: nothing listens there, as when a peer is down.
    closedPortClient = createClient(directory.DirectoryServiceClient, '127.0.0.1:1', { deadlineMs: 1000 });
    server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, {
      getClient: async ({ clientId }) => {
        if (clientId === 'peer-down') return closedPortClient.getClient({ clientId });
        if (clientId === 'peer-slow') return slowClient.getClient({ clientId });
        throw new StoreUnavailableError('redis');
      },
      authenticateClient: async () => ({}),
      authenticateApiCredentials: async () => ({ tenantId: 't', credentialsId: 'c' }),
      getBranding: async () => ({ mailTemplates: [] }),
    });
    const port = await server.start(0, '127.0.0.1');
    client = createClient(directory.DirectoryServiceClient, `127.0.0.1:${port}`, { deadlineMs: 3000 });
  });
  afterAll(async () => {
    for (const c of [client, closedPortClient, slowClient]) c.close();
    await Promise.all([server.stop(500), slowServer.stop(500)]);
  });

  const codeOf = (clientId: string) =>
    client.getClient({ clientId }).then(
      () => grpc.status.OK,
      (err: grpc.ServiceError) => err.code,
    );

  it('answers UNAVAILABLE when the peer it calls is down, DEADLINE_EXCEEDED when the peer is too slow', async () => {
    assert.equal(grpc.status[await codeOf('peer-down')], 'UNAVAILABLE');
    assert.equal(grpc.status[await codeOf('peer-slow')], 'DEADLINE_EXCEEDED');
  });

  it('answers UNAVAILABLE when a store is down', async () => {
    assert.equal(grpc.status[await codeOf('store-down')], 'UNAVAILABLE');
  });

  it('logs none of them as an unhandled error', async () => {
    await codeOf('peer-down');
    await codeOf('store-down');
    assert.deepEqual(
      lines.filter((l) => l.level === 'error'),
      [],
    );
  });
});
