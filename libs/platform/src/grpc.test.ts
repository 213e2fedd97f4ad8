import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { directory } from '@sesame/proto';
import { GrpcError, GrpcServer, type PromiseClient, createClient, isGrpcStatus } from './grpc';
import { HealthClient } from './grpc-health-client';
import { createLogger } from './logger';

describe('GrpcServer and createClient', () => {
  const server = new GrpcServer({ logger: createLogger({ service: 'test', level: 'silent' }) });
  let client: PromiseClient<directory.DirectoryServiceClient>;
  let address: string;

  beforeAll(async () => {
    server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, {
      getClient: async ({ clientId }) => {
        if (clientId === 'slow') await new Promise((r) => setTimeout(r, 2500));
        if (clientId === 'boom') throw new Error('database password is hunter2');
        if (clientId !== 'c1') throw new GrpcError(grpc.status.NOT_FOUND, 'no such client');
        return {
          client: directory.Client.fromPartial({
            clientId: 'c1',
            tenantId: 't1',
            redirectUris: ['https://rp/cb'],
          }),
        };
      },
      authenticateClient: async () => ({}),
      authenticateApiCredentials: async () => ({ tenantId: 't', credentialsId: 'c' }),
      getBranding: async () => ({ mailTemplates: [] }),
    });
    const port = await server.start(0, '127.0.0.1');
    address = `127.0.0.1:${port}`;
    client = createClient(directory.DirectoryServiceClient, address, { deadlineMs: 1500 });
  });
  afterAll(async () => {
    client.close();
    await server.stop(1000);
  });

  it('serves a unary method through the promise client', async () => {
    const res = await client.getClient({ clientId: 'c1' });
    assert.equal(res.client?.tenantId, 't1');
    assert.deepEqual(res.client?.redirectUris, ['https://rp/cb']);
  });

  it('maps GrpcError to its status and hides unexpected errors behind INTERNAL', async () => {
    await assert.rejects(client.getClient({ clientId: 'nope' }), (err) =>
      isGrpcStatus(err, grpc.status.NOT_FOUND),
    );
    await assert.rejects(client.getClient({ clientId: 'boom' }), (err: grpc.ServiceError) => {
      assert.equal(err.code, grpc.status.INTERNAL);
      assert.equal(err.details, 'internal error');
      return true;
    });
  });

  it('applies the default deadline to every call', async () => {
    await assert.rejects(client.getClient({ clientId: 'slow' }), (err) =>
      isGrpcStatus(err, grpc.status.DEADLINE_EXCEEDED),
    );
  });

  it('answers grpc.health.v1 Check: NOT_SERVING before setServing, SERVING after, per service too', async () => {
    const health = new HealthClient(address);
    assert.equal(await health.check(''), 'NOT_SERVING');
    server.setServing(true);
    assert.equal(await health.check(''), 'SERVING');
    assert.equal(await health.check('sesame.directory.v1.DirectoryService'), 'SERVING');
    health.close();
  });
});
