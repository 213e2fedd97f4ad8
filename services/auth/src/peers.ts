import { GrpcStatus, createClient, grpcTlsOf, isGrpcStatus } from '@sesame/platform';
import { directory, grants, keys } from '@sesame/proto';
import { UndecryptableRequestObject } from './authorize';
import type { AuthConfig } from './config';

/** The gRPC contracts auth calls (ARCHITECTURE §1: Directory, Grants, Keys), as plain functions. */
export interface AuthPeers {
  getClient(clientId: string): Promise<directory.Client | undefined>;
  decryptRequestObject(jwe: string): Promise<Uint8Array>;
  issueCode(request: grants.IssueCodeRequest): Promise<grants.IssueCodeResponse>;
  /** The client when the secret is right; undefined for an unknown client or a wrong secret (/authorize_ciba). */
  authenticateClient(clientId: string, clientSecret: string): Promise<directory.Client | undefined>;
  startBackchannel(request: grants.StartBackchannelRequest): Promise<grants.StartBackchannelResponse>;
  markBackchannelOpened(authReqId: string): Promise<void>;
  completeBackchannel(
    authReqId: string,
    claims: grants.AuthenticatedClaims,
    login?: grants.LoginRef,
  ): Promise<void>;
  denyBackchannel(authReqId: string, reason: string): Promise<void>;
  /** What an access token is bound to (/session-feedback): Grants.IntrospectAccessToken. */
  introspectAccessToken(accessToken: string): Promise<grants.IntrospectAccessTokenResponse>;
  /** Keys.VerifySignature (an id_token_hint): the payload, or undefined when no published key verifies it. */
  verifySignature(jws: string): Promise<string | undefined>;
  /** Keys.SignLogoutToken: a Back-Channel Logout token signed by the active signing key. */
  signLogoutToken(request: keys.SignLogoutTokenRequest): Promise<string>;
  /** An app's branding and its tenant's mail templates (Directory.GetBranding); absent: Sesame's design. */
  getBranding?(tenantId: string, appId: string): Promise<directory.GetBrandingResponse>;
  close(): void;
}

export function grpcPeers(config: AuthConfig): AuthPeers {
  // mTLS with this service's certificate when the files are configured (required outside development).
  const tls = grpcTlsOf(config);
  const dir = createClient(directory.DirectoryServiceClient, config.SESAME_DIRECTORY_ADDR, {
    deadlineMs: 2000,
    tls,
  });
  const keyService = createClient(keys.KeysServiceClient, config.SESAME_KEYS_ADDR, { deadlineMs: 2000, tls });
  const grantService = createClient(grants.GrantsServiceClient, config.SESAME_GRANTS_ADDR, {
    deadlineMs: 2000,
    tls,
  });
  return {
    async getClient(clientId) {
      try {
        return (await dir.getClient({ clientId })).client;
      } catch (err) {
        if (isGrpcStatus(err, GrpcStatus.NOT_FOUND) || isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT))
          return undefined;
        throw err;
      }
    },
    async decryptRequestObject(jwe) {
      try {
        return Buffer.from((await keyService.decryptRequestObject({ jwe })).plaintext, 'utf8');
      } catch (err) {
        // Only "this JWE is not ours or is broken" blames the RP; an outage of Keys stays a server error.
        if (isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT)) throw new UndecryptableRequestObject();
        throw err;
      }
    },
    issueCode: (request) => grantService.issueCode(request),
    async authenticateClient(clientId, clientSecret) {
      try {
        return (await dir.authenticateClient({ clientId, clientSecret })).client;
      } catch (err) {
        if (
          isGrpcStatus(err, GrpcStatus.UNAUTHENTICATED) ||
          isGrpcStatus(err, GrpcStatus.NOT_FOUND) ||
          isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT)
        )
          return undefined;
        throw err;
      }
    },
    startBackchannel: (request) => grantService.startBackchannel(request),
    async markBackchannelOpened(authReqId) {
      await grantService.markBackchannelOpened({ authReqId });
    },
    async completeBackchannel(authReqId, claims, login) {
      await grantService.completeBackchannel({ authReqId, claims, login });
    },
    async denyBackchannel(authReqId, reason) {
      await grantService.denyBackchannel({ authReqId, reason });
    },
    introspectAccessToken: (accessToken) => grantService.introspectAccessToken({ accessToken }),
    async verifySignature(jws) {
      try {
        return (await keyService.verifySignature({ jws })).payload;
      } catch (err) {
        // A forged or foreign JWS is the RP's mistake; an outage of Keys stays a server error.
        if (isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT)) return undefined;
        throw err;
      }
    },
    signLogoutToken: async (request) => (await keyService.signLogoutToken(request)).logoutToken,
    getBranding: (tenantId, appId) => dir.getBranding({ tenantId, appId }),
    close() {
      dir.close();
      keyService.close();
      grantService.close();
    },
  };
}
