// Test support only: a small in-memory Directory (the contract mgmt serves), exposed over real gRPC so
// token's tests exercise its Directory client. Not used by the service itself.
import {
  type AsyncServer,
  GrpcError,
  GrpcServer,
  GrpcStatus,
  type Logger,
  safeEqual,
} from '@sesame/platform';
import { directory } from '@sesame/proto';

export interface FakeClient {
  clientId: string;
  /** Absent for public clients. */
  secret?: string;
  tenantId?: string;
  appId?: string;
  redirectUris?: string[];
  ciba?: Partial<directory.CibaSettings>;
  refreshTokens?: Partial<directory.RefreshTokenSettings>;
  /** private_key_jwt: a confidential client with keys (by value as JSON, or by URL). */
  tokenEndpointAuthMethod?: string;
  jwks?: string;
  jwksUri?: string;
  /** DPoP required at /token. */
  dpopBoundAccessTokens?: boolean;
  /** tls_client_auth: the registered subject DN. */
  tlsClientAuthSubjectDn?: string;
  tlsClientCertificateBoundAccessTokens?: boolean;
  /** The app's ID token alg (RS256 when absent). */
  idTokenSignedResponseAlg?: string;
  /** 'fapi2': the FAPI 2.0 Security Profile. */
  securityProfile?: string;
}

export class FakeDirectory {
  private readonly clients = new Map<string, { client: directory.Client; secret?: string }>();
  private readonly apiCredentials = new Map<string, { tenantId: string; secret: string }>();
  /** Number of AuthenticateApiCredentials calls received (to observe caching). */
  apiCredentialCalls = 0;

  addClient(c: FakeClient): directory.Client {
    const client: directory.Client = {
      tenantId: c.tenantId ?? 'tenant-1',
      appId: c.appId ?? `app-${c.clientId}`,
      clientId: c.clientId,
      appName: c.clientId,
      type:
        c.secret || c.tokenEndpointAuthMethod
          ? directory.ClientType.CLIENT_TYPE_CONFIDENTIAL
          : directory.ClientType.CLIENT_TYPE_PUBLIC,
      redirectUris: c.redirectUris ?? ['https://rp.example/cb'],
      blockedCountries: [],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: '',
      backchannelLogoutSessionRequired: false,
      firstParty: false,
      tokenEndpointAuthMethod: c.tokenEndpointAuthMethod ?? '',
      jwks: c.jwks ?? '',
      jwksUri: c.jwksUri ?? '',
      requirePushedAuthorizationRequests: false,
      requestObjectSigningAlg: '',
      dpopBoundAccessTokens: c.dpopBoundAccessTokens ?? false,
      tlsClientAuthSubjectDn: c.tlsClientAuthSubjectDn ?? '',
      tlsClientCertificateBoundAccessTokens: c.tlsClientCertificateBoundAccessTokens ?? false,
      idTokenSignedResponseAlg: c.idTokenSignedResponseAlg ?? '',
      backchannelAuthenticationRequestSigningAlg: '',
      securityProfile: c.securityProfile ?? '',
      allowedScopes: ['openid', 'email', 'phone', 'svc_network_info'],
      ciba: {
        mode: c.ciba?.mode ?? directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL,
        notificationEndpoint: c.ciba?.notificationEndpoint ?? '',
        strictErrors: c.ciba?.strictErrors ?? false,
        expiresIn: c.ciba?.expiresIn ?? 0,
      },
      auxLinkPrefix: '',
      registrationRedirectUri: '',
      refreshTokens: {
        enabled: c.refreshTokens?.enabled ?? false,
        absoluteLifetimeS: c.refreshTokens?.absoluteLifetimeS ?? 0,
        idleLifetimeS: c.refreshTokens?.idleLifetimeS ?? 0,
      },
    };
    this.clients.set(c.clientId, { client, secret: c.secret });
    return client;
  }

  addApiCredentials(credentialsId: string, secret: string, tenantId = 'tenant-1'): void {
    this.apiCredentials.set(credentialsId, { tenantId, secret });
  }

  removeClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  removeApiCredentials(credentialsId: string): void {
    this.apiCredentials.delete(credentialsId);
  }

  implementation(): AsyncServer<directory.DirectoryServiceServer> {
    const unauthenticated = () => new GrpcError(GrpcStatus.UNAUTHENTICATED, 'authentication failed');
    return {
      getClient: async ({ clientId }: directory.GetClientRequest): Promise<directory.GetClientResponse> => {
        const found = this.clients.get(clientId);
        if (!found) throw new GrpcError(GrpcStatus.NOT_FOUND, 'unknown client');
        return { client: found.client };
      },
      authenticateClient: async (req: directory.AuthenticateClientRequest) => {
        const found = this.clients.get(req.clientId);
        if (!found?.secret || !safeEqual(found.secret, req.clientSecret)) throw unauthenticated();
        return { client: found.client };
      },
      authenticateApiCredentials: async (req: directory.AuthenticateApiCredentialsRequest) => {
        this.apiCredentialCalls++;
        const found = this.apiCredentials.get(req.credentialsId);
        if (!found || !safeEqual(found.secret, req.secret)) throw unauthenticated();
        return { tenantId: found.tenantId, credentialsId: req.credentialsId };
      },
      // token never asks for branding (auth renders it).
      getBranding: async () => ({ mailTemplates: [] }),
    };
  }

  /** Serves this directory on a loopback port; returns its address and a stop function. */
  async serve(logger: Logger): Promise<{ address: string; stop: () => Promise<void> }> {
    const server = new GrpcServer({ logger });
    server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, this.implementation());
    const port = await server.start(0, '127.0.0.1');
    server.setServing(true);
    return { address: `127.0.0.1:${port}`, stop: () => server.stop(500) };
  }
}
