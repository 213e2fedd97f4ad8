import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, isGrpcStatus } from '@sesame/platform';
import { directory } from '@sesame/proto';
import { type MgmtHarness, startMgmt } from '../testing/mgmt-harness';

const rejectsWith = (p: Promise<unknown>, code: number) =>
  assert.rejects(p, (err) => isGrpcStatus(err, code));

describe('Directory gRPC', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let confidential: { appId: string; clientId: string; clientSecret: string };
  let pub: { appId: string; clientId: string };
  let creds: { credentialsId: string; apiSecret: string };
  /** DELETE `path` through the admin API answers 200, and `authenticate` is refused (UNAUTHENTICATED) after it. */
  const refusedAfterDelete = async (path: string, authenticate: () => Promise<unknown>) => {
    assert.equal((await h.admin('DELETE', path)).status, 200);
    await rejectsWith(authenticate(), GrpcStatus.UNAUTHENTICATED);
  };

  beforeAll(async () => {
    h = await startMgmt();
    tenantId = await h.createTenant('Acme');
    confidential = await h.createApp<typeof confidential>(tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
      allowedScopes: ['openid', 'email'],
      ciba: {
        mode: 'ping',
        notificationEndpoint: 'https://shop.example/ciba',
        strictErrors: true,
        expiresIn: 600,
      },
      auxLinkPrefix: 'https://shop.example/aux/',
      registrationRedirectUri: 'https://shop.example/registered',
      refreshTokens: { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 },
      postLogoutRedirectUris: ['https://shop.example/signed-out'],
      backchannelLogoutUri: 'https://shop.example/backchannel-logout',
      backchannelLogoutSessionRequired: true,
    });
    pub = await h.createApp<typeof pub>(tenantId, {
      name: 'SPA',
      redirectUris: ['http://localhost:3000/cb'],
      public: true,
    });
    creds = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/credentials`, {})
    ).json()) as typeof creds;
  });
  afterAll(() => h.stop());

  it('GetClient returns every client setting and never a secret', async () => {
    const { client } = await h.directoryClient.getClient({ clientId: confidential.clientId });
    assert.deepEqual(client, {
      tenantId,
      appId: confidential.appId,
      clientId: confidential.clientId,
      appName: 'Shop',
      type: directory.ClientType.CLIENT_TYPE_CONFIDENTIAL,
      redirectUris: ['https://shop.example/cb'],
      allowedScopes: ['openid', 'email'],
      ciba: {
        mode: directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING,
        notificationEndpoint: 'https://shop.example/ciba',
        strictErrors: true,
        expiresIn: 600,
      },
      auxLinkPrefix: 'https://shop.example/aux/',
      registrationRedirectUri: 'https://shop.example/registered',
      blockedCountries: [],
      refreshTokens: { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 },
      postLogoutRedirectUris: ['https://shop.example/signed-out'],
      backchannelLogoutUri: 'https://shop.example/backchannel-logout',
      backchannelLogoutSessionRequired: true,
      // Only the system tenant's console is first-party.
      firstParty: false,
      tokenEndpointAuthMethod: '',
      jwks: '',
      jwksUri: '',
      requirePushedAuthorizationRequests: false,
      requestObjectSigningAlg: '',
      dpopBoundAccessTokens: false,
      tlsClientAuthSubjectDn: '',
      tlsClientCertificateBoundAccessTokens: false,
      idTokenSignedResponseAlg: '',
      backchannelAuthenticationRequestSigningAlg: '',
      securityProfile: '',
    });
  });

  it('a private_key_jwt app: GetClient carries its keys, PAR rule and FAPI 2.0 profile; AuthenticateClient refuses its secret', async () => {
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      kid: 'k1',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    };
    const keyed = await h.createApp<typeof confidential>(tenantId, {
      name: 'Bank',
      redirectUris: ['https://bank.example/cb'],
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: { keys: [jwk] },
      requirePushedAuthorizationRequests: true,
      idTokenSignedResponseAlg: 'ES256',
      backchannelAuthenticationRequestSigningAlg: 'PS256',
      securityProfile: 'fapi2',
    });
    const { client } = await h.directoryClient.getClient({ clientId: keyed.clientId });
    assert.equal(client?.idTokenSignedResponseAlg, 'ES256');
    assert.equal(client?.backchannelAuthenticationRequestSigningAlg, 'PS256');
    assert.equal(client?.securityProfile, 'fapi2');
    assert.equal(client?.tokenEndpointAuthMethod, 'private_key_jwt');
    assert.deepEqual(JSON.parse(client?.jwks ?? ''), { keys: [jwk] });
    assert.equal(client?.jwksUri, '');
    assert.equal(client?.requirePushedAuthorizationRequests, true);
    await rejectsWith(
      h.directoryClient.authenticateClient({ clientId: keyed.clientId, clientSecret: keyed.clientSecret }),
      GrpcStatus.UNAUTHENTICATED,
    );
  });

  it('an mTLS app (RFC 8705): GetClient carries its subject DN and token binding; AuthenticateClient refuses its secret', async () => {
    const bank = await h.createApp<typeof confidential>(tenantId, {
      name: 'Bank mTLS',
      redirectUris: ['https://bank.example/cb'],
      tokenEndpointAuthMethod: 'tls_client_auth',
      tlsClientAuthSubjectDn: 'CN=bank-rp,O=Bank,C=DE',
      tlsClientCertificateBoundAccessTokens: true,
    });
    const { client } = await h.directoryClient.getClient({ clientId: bank.clientId });
    assert.deepEqual(
      [
        client?.tokenEndpointAuthMethod,
        client?.tlsClientAuthSubjectDn,
        client?.tlsClientCertificateBoundAccessTokens,
      ],
      ['tls_client_auth', 'CN=bank-rp,O=Bank,C=DE', true],
    );
    await rejectsWith(
      h.directoryClient.authenticateClient({ clientId: bank.clientId, clientSecret: bank.clientSecret }),
      GrpcStatus.UNAUTHENTICATED,
    );
  });

  it('GetClient of a public app says PUBLIC and poll mode by default; an unknown client_id is NOT_FOUND', async () => {
    const { client } = await h.directoryClient.getClient({ clientId: pub.clientId });
    assert.equal(client?.type, directory.ClientType.CLIENT_TYPE_PUBLIC);
    assert.equal(client?.ciba?.mode, directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL);
    assert.equal(client?.ciba?.strictErrors, false);
    assert.equal(client?.ciba?.expiresIn, 0, 'no own lifetime: the platform default');
    assert.deepEqual(client?.refreshTokens, { enabled: false, absoluteLifetimeS: 0, idleLifetimeS: 0 });
    assert.deepEqual(
      [
        client?.postLogoutRedirectUris,
        client?.backchannelLogoutUri,
        client?.backchannelLogoutSessionRequired,
      ],
      [[], '', false],
      'no logout settings by default',
    );
    await rejectsWith(h.directoryClient.getClient({ clientId: 'nope' }), GrpcStatus.NOT_FOUND);
    await rejectsWith(h.directoryClient.getClient({ clientId: '' }), GrpcStatus.NOT_FOUND);
  });

  it('AuthenticateClient accepts the secret shown at creation and nothing else', async () => {
    const { client } = await h.directoryClient.authenticateClient({
      clientId: confidential.clientId,
      clientSecret: confidential.clientSecret,
    });
    assert.equal(client?.appId, confidential.appId);
    const wrong = [
      { clientId: confidential.clientId, clientSecret: `${confidential.clientSecret}x` },
      { clientId: confidential.clientId, clientSecret: '' },
      { clientId: 'unknown', clientSecret: confidential.clientSecret },
      { clientId: pub.clientId, clientSecret: '' },
      { clientId: pub.clientId, clientSecret: 'anything' },
    ];
    for (const request of wrong) {
      await rejectsWith(h.directoryClient.authenticateClient(request), GrpcStatus.UNAUTHENTICATED);
    }
  });

  it('AuthenticateApiCredentials accepts the API secret, refuses a wrong one, and refuses once revoked', async () => {
    assert.deepEqual(
      await h.directoryClient.authenticateApiCredentials({
        credentialsId: creds.credentialsId,
        secret: creds.apiSecret,
      }),
      { tenantId, credentialsId: creds.credentialsId },
    );
    await rejectsWith(
      h.directoryClient.authenticateApiCredentials({ credentialsId: creds.credentialsId, secret: 'wrong' }),
      GrpcStatus.UNAUTHENTICATED,
    );
    await rejectsWith(
      h.directoryClient.authenticateApiCredentials({ credentialsId: 'unknown', secret: creds.apiSecret }),
      GrpcStatus.UNAUTHENTICATED,
    );
    await refusedAfterDelete(`/api/v1/admin/tenants/${tenantId}/credentials/${creds.credentialsId}`, () =>
      h.directoryClient.authenticateApiCredentials({
        credentialsId: creds.credentialsId,
        secret: creds.apiSecret,
      }),
    );
  });

  it('a removed application stops authenticating', async () => {
    await refusedAfterDelete(`/api/v1/admin/tenants/${tenantId}/applications/${confidential.appId}`, () =>
      h.directoryClient.authenticateClient({
        clientId: confidential.clientId,
        clientSecret: confidential.clientSecret,
      }),
    );
  });
});
