import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type AsyncServer, GrpcServer, createLogger } from '@sesame/platform';
import { directory, grants, keys } from '@sesame/proto';
import { type TestPki, createTestPki } from '@sesame/testing';
import { loadAuthConfig } from './config';
import { type AuthPeers, grpcPeers } from './peers';
import { client } from './testing/hosted-test-client';

const logger = createLogger({ service: 'test', level: 'silent' });

/** auth's gRPC clients against servers that, as in the cluster, accept only callers with a CA certificate. */
describe("auth's peers over mTLS", () => {
  let pki: TestPki;
  let server: GrpcServer;
  let port: number;
  let peers: AuthPeers;

  beforeAll(async () => {
    pki = await createTestPki('auth-peers');
    server = new GrpcServer({ logger }, { tls: { ...(await pki.issue('mgmt')), refreshMs: 60_000 } });
    server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, {
      getClient: async () => ({ client }),
      authenticateClient: async () => ({}),
      authenticateApiCredentials: async () => ({ tenantId: '', credentialsId: '' }),
      getBranding: async () => ({ mailTemplates: [] }),
    });
    server.add<keys.KeysServiceServer>(keys.KeysServiceService, {
      watchSigningKey: (call) => call.end(),
      decryptRequestObject: async () => ({ plaintext: '{"scope":"openid"}', kid: 'k1' }),
      rotateKeys: async () => keys.RotateKeysResponse.fromPartial({}),
      verifySignature: async () => ({ payload: '', kid: '' }),
      signLogoutToken: async () => ({ logoutToken: '', jti: '' }),
    });
    server.add<grants.GrantsServiceServer>(
      grants.GrantsServiceService,
      Object.fromEntries(
        Object.keys(grants.GrantsServiceService).map((m) => [
          m,
          async () => (m === 'issueCode' ? { code: 'c-1', expiresIn: 60 } : {}),
        ]),
      ) as unknown as AsyncServer<grants.GrantsServiceServer>,
    );
    port = await server.start(0, '127.0.0.1');
    server.setServing(true);
    const files = await pki.issue('auth');
    const address = `localhost:${port}`;
    peers = grpcPeers(
      loadAuthConfig({
        SESAME_ENV: 'test',
        SESAME_AUTH_URL: 'http://localhost',
        SESAME_GRPC_TLS_CA: files.ca,
        SESAME_GRPC_TLS_CERT: files.cert,
        SESAME_GRPC_TLS_KEY: files.key,
        SESAME_DIRECTORY_ADDR: address,
        SESAME_KEYS_ADDR: address,
        SESAME_GRANTS_ADDR: address,
      }),
    );
  });
  afterAll(async () => {
    peers?.close();
    await server?.stop(1000);
  });

  it('calls Directory, Keys and Grants with its certificate when the TLS files are configured', async () => {
    assert.deepEqual(await peers.getClient(client.clientId), client);
    assert.equal(Buffer.from(await peers.decryptRequestObject('jwe')).toString(), '{"scope":"openid"}');
    assert.deepEqual(await peers.issueCode(grants.IssueCodeRequest.fromPartial({})), {
      code: 'c-1',
      expiresIn: 60,
    });
  });
});
