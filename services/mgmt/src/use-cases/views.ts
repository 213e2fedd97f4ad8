import { MgmtError } from '@sesame/platform';
import type { DirectoryRepositories } from '../directory/directory.repository';
import type { ApiCredentials, Application, Tenant } from '../directory/model';
import { SYSTEM_TENANT_ID } from '../directory/system-tenant';

/** JSON shapes of the admin API (the OpenAPI document describes the same). Secret hashes never leave. */
export const tenantView = (t: Tenant) => ({
  tenantId: t.tenantId,
  name: t.name,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

export const applicationView = (a: Application) => ({
  appId: a.appId,
  tenantId: a.tenantId,
  name: a.name,
  clientId: a.clientId,
  public: a.clientType === 'public',
  redirectUris: a.redirectUris,
  allowedScopes: a.allowedScopes,
  ciba: {
    mode: a.ciba.mode,
    strictErrors: a.ciba.strictErrors,
    ...(a.ciba.notificationEndpoint ? { notificationEndpoint: a.ciba.notificationEndpoint } : {}),
    ...(a.ciba.expiresIn ? { expiresIn: a.ciba.expiresIn } : {}),
  },
  ...(a.auxLinkPrefix ? { auxLinkPrefix: a.auxLinkPrefix } : {}),
  ...(a.registrationRedirectUri ? { registrationRedirectUri: a.registrationRedirectUri } : {}),
  ...(a.registrationLinkExpiresIn ? { registrationLinkExpiresIn: a.registrationLinkExpiresIn } : {}),
  ...(a.refreshTokens ? { refreshTokens: { ...a.refreshTokens } } : {}),
  ...(a.postLogoutRedirectUris?.length ? { postLogoutRedirectUris: [...a.postLogoutRedirectUris] } : {}),
  ...(a.backchannelLogoutUri ? { backchannelLogoutUri: a.backchannelLogoutUri } : {}),
  ...(a.backchannelLogoutSessionRequired ? { backchannelLogoutSessionRequired: true } : {}),
  ...(a.tokenEndpointAuthMethod ? { tokenEndpointAuthMethod: a.tokenEndpointAuthMethod } : {}),
  ...(a.jwks ? { jwks: a.jwks } : {}),
  ...(a.jwksUri ? { jwksUri: a.jwksUri } : {}),
  ...(a.requirePushedAuthorizationRequests ? { requirePushedAuthorizationRequests: true } : {}),
  ...(a.requestObjectSigningAlg ? { requestObjectSigningAlg: a.requestObjectSigningAlg } : {}),
  ...(a.dpopBoundAccessTokens ? { dpopBoundAccessTokens: true } : {}),
  ...(a.tlsClientAuthSubjectDn ? { tlsClientAuthSubjectDn: a.tlsClientAuthSubjectDn } : {}),
  ...(a.tlsClientCertificateBoundAccessTokens ? { tlsClientCertificateBoundAccessTokens: true } : {}),
  ...(a.idTokenSignedResponseAlg ? { idTokenSignedResponseAlg: a.idTokenSignedResponseAlg } : {}),
  ...(a.backchannelAuthenticationRequestSigningAlg
    ? { backchannelAuthenticationRequestSigningAlg: a.backchannelAuthenticationRequestSigningAlg }
    : {}),
  ...(a.securityProfile ? { securityProfile: a.securityProfile } : {}),
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

export const credentialsView = (c: ApiCredentials) => ({
  credentialsId: c.credentialsId,
  tenantId: c.tenantId,
  createdAt: c.createdAt,
  ...(c.revokedAt !== undefined ? { revokedAt: c.revokedAt } : {}),
});

/** The tenant named in the path, or 404 tenant_not_found. */
export async function requireTenant(dir: DirectoryRepositories, tenantId: string): Promise<Tenant> {
  // The built-in system tenant (the console's own) is not administered through the admin API.
  const tenant = tenantId === SYSTEM_TENANT_ID ? undefined : await dir.tenants.get(tenantId);
  if (!tenant) throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
  return tenant;
}

/** The application named in the path, within the tenant, or 404 application_not_found. */
export async function requireApplication(
  dir: DirectoryRepositories,
  tenantId: string,
  appId: string,
): Promise<Application> {
  const app = await dir.applications.get(tenantId, appId);
  if (!app) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
  return app;
}
