import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { activitylogs, directory, grants, keys, users } from '@sesame/proto';
import { type TestPki, type TlsFiles, createTestPki } from '@sesame/testing';
import { GrpcServer, type PromiseClient, createClient, isGrpcStatus } from './grpc';
import { grpcCallers } from './grpc-callers';
import { HealthClient } from './grpc-health-client';
import { type GrpcTlsFiles, channelCredentials as channelCredentialsFor } from './grpc-tls';
import { createLogger } from './logger';

const logger = createLogger({ service: 'test', level: 'silent' });
const tlsOf = (files: TlsFiles, refreshMs = 60_000): GrpcTlsFiles => ({ ...files, refreshMs });
const refusedWith = (code: grpc.status) => (err: unknown) => isGrpcStatus(err, code);

describe('gRPC over mTLS with per-method caller authorization', () => {
  let pki: TestPki;
  let server: GrpcServer;
  let port: number;
  const clients: Array<{ close(): void }> = [];
  const directoryClient = (tls: GrpcTlsFiles, host = 'localhost') => {
    const client = createClient(directory.DirectoryServiceClient, `${host}:${port}`, {
      tls,
      deadlineMs: 3000,
    });
    clients.push(client);
    return client;
  };
  const authenticateApi = (client: PromiseClient<directory.DirectoryServiceClient>) =>
    client.authenticateApiCredentials({ credentialsId: 'c', secret: 's' });

  beforeAll(async () => {
    pki = await createTestPki('cluster');
    server = new GrpcServer({ logger }, { tls: tlsOf(await pki.issue('mgmt')) });
    server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, {
      getClient: async () => ({}),
      authenticateClient: async () => ({}),
      authenticateApiCredentials: async () => ({ tenantId: 't', credentialsId: 'c' }),
      getBranding: async () => ({ mailTemplates: [] }),
    });
    server.add<keys.KeysServiceServer>(keys.KeysServiceService, {
      watchSigningKey: (call) => call.end(),
      decryptRequestObject: async () => ({ plaintext: '', kid: '' }),
      rotateKeys: async () => keys.RotateKeysResponse.fromPartial({}),
      verifySignature: async () => ({ payload: '', kid: '' }),
      signLogoutToken: async () => ({ logoutToken: '', jti: '' }),
    });
    port = await server.start(0, '127.0.0.1');
    server.setServing(true);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.stop(1000);
  });

  it('answers a caller whose certificate names a service the table allows', async () => {
    const client = directoryClient(tlsOf(await pki.issue('token')));
    assert.deepEqual(await authenticateApi(client), { tenantId: 't', credentialsId: 'c' });
  });

  it('refuses a caller without a client certificate (UNAUTHENTICATED)', async () => {
    const raw = new directory.DirectoryServiceClient(
      `localhost:${port}`,
      grpc.credentials.createSsl(readFileSync(pki.caFile)),
    );
    clients.push(raw);
    const call = new Promise((resolve, reject) =>
      raw.authenticateApiCredentials({ credentialsId: 'c', secret: 's' }, (err, res) =>
        err ? reject(err) : resolve(res),
      ),
    );
    await assert.rejects(call, refusedWith(grpc.status.UNAUTHENTICATED));
  });

  it('refuses a plaintext caller', async () => {
    const client = createClient(directory.DirectoryServiceClient, `localhost:${port}`, { deadlineMs: 2000 });
    clients.push(client);
    await assert.rejects(authenticateApi(client), refusedWith(grpc.status.UNAVAILABLE));
  });

  it('refuses a certificate with the right name from another CA (UNAUTHENTICATED)', async () => {
    const other = await (await createTestPki('other')).issue('token');
    const client = directoryClient(tlsOf({ ...other, ca: pki.caFile }));
    await assert.rejects(authenticateApi(client), refusedWith(grpc.status.UNAUTHENTICATED));
  });

  it('refuses a valid certificate of a service the table does not allow (PERMISSION_DENIED)', async () => {
    const client = directoryClient(tlsOf(await pki.issue('auth')));
    await assert.rejects(authenticateApi(client), refusedWith(grpc.status.PERMISSION_DENIED));
  });

  it('refuses a streaming method to the wrong service: only token may watch the signing key', async () => {
    const files = await pki.issue('mgmt');
    const watch = (tls: GrpcTlsFiles) =>
      new Promise<void>((resolve, reject) => {
        const raw = new keys.KeysServiceClient(`localhost:${port}`, channelCredentialsFor(tls));
        clients.push(raw);
        const stream = raw.watchSigningKey({});
        stream.on('data', () => undefined);
        stream.on('error', reject);
        stream.on('end', () => resolve());
      });
    await assert.rejects(watch(tlsOf(files)), refusedWith(grpc.status.PERMISSION_DENIED));
    await watch(tlsOf(await pki.issue('token')));
  });

  it('keeps grpc.health.v1 callable without a client certificate, for probes', async () => {
    const health = new HealthClient(
      `localhost:${port}`,
      grpc.credentials.createSsl(readFileSync(pki.caFile)),
    );
    clients.push(health);
    assert.equal(await health.check(''), 'SERVING');
  });

  it('the callers table names every method of every gRPC contract in proto/', () => {
    const contracts = [
      users.UsersServiceService,
      grants.GrantsServiceService,
      keys.KeysServiceService,
      directory.DirectoryServiceService,
      activitylogs.ActivityLogsServiceService,
    ];
    const paths = contracts.flatMap((c) => Object.values(c).map((m) => m.path)).sort();
    assert.deepEqual(Object.keys(grpcCallers).sort(), paths);
    assert.deepEqual(grpcCallers['/sesame.keys.v1.KeysService/WatchSigningKey'], ['token']);
    assert.deepEqual(grpcCallers['/sesame.grants.v1.GrantsService/IssueCode'], ['auth']);
    assert.deepEqual(grpcCallers['/sesame.users.v1.UsersService/RemoveUser'], ['mgmt']);
  });
});

describe('gRPC TLS files', () => {
  it('the client verifies the server name against the DNS SANs, and a rewritten certificate is picked up', async () => {
    const pki = await createTestPki('reload');
    const serving = await pki.issue('mgmt', { dnsNames: ['sesame-mgmt'] });
    const server = new GrpcServer({ logger }, { tls: tlsOf(serving, 200) });
    server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, {
      getClient: async () => ({}),
      authenticateClient: async () => ({}),
      authenticateApiCredentials: async () => ({ tenantId: 't', credentialsId: 'c' }),
      getBranding: async () => ({ mailTemplates: [] }),
    });
    const port = await server.start(0, '127.0.0.1');
    const client = createClient(directory.DirectoryServiceClient, `localhost:${port}`, {
      tls: tlsOf(await pki.issue('token')),
      deadlineMs: 1500,
    });
    try {
      const call = () => client.authenticateApiCredentials({ credentialsId: 'c', secret: 's' });
      // Dialled as localhost, the certificate only names sesame-mgmt: the handshake fails.
      await assert.rejects(call(), refusedWith(grpc.status.UNAVAILABLE));
      const renewed = await pki.issue('mgmt', { dnsNames: ['sesame-mgmt', 'localhost'] });
      copyFileSync(renewed.cert, serving.cert);
      copyFileSync(renewed.key, serving.key);
      await new Promise((r) => setTimeout(r, 600));
      let answer: unknown;
      for (let attempt = 0; attempt < 20 && !answer; attempt++) {
        answer = await call().catch(() => new Promise((r) => setTimeout(() => r(undefined), 200)));
      }
      assert.deepEqual(answer, { tenantId: 't', credentialsId: 'c' });
    } finally {
      client.close();
      await server.stop(1000);
    }
  });
});
