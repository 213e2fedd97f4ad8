import { MgmtError, newId, newSecret, sha256 } from '@sesame/platform';
import type { z } from 'zod';
import type { Application } from '../../directory/model';
import { type AdminActivityType, adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../deps';
import { applicationView } from '../views';
import { type createApplicationBody, loopbackEndpointProblem } from './application-schemas';
import { clientKeysProblem } from './client-keys';
import { securityProfileProblem } from './security-profile';

/**
 * Creates an application in a tenant and emits administrator_create_application as the caller (`emit`):
 * the admin API's route and the console's Applications page both act through it.
 */
export async function createApplication(
  deps: Pick<AdminRouteDeps, 'clock' | 'dir' | 'secretVault' | 'allowLoopbackEndpoints'>,
  tenantId: string,
  body: z.infer<typeof createApplicationBody>,
  emit: (tenantId: string, type: AdminActivityType, data: Record<string, unknown>) => Promise<void>,
) {
  const loopback = loopbackEndpointProblem(body.backchannelLogoutUri, deps.allowLoopbackEndpoints ?? false);
  if (loopback) throw new MgmtError(400, 'invalid_request', 'invalid request body', loopback);
  const keys = clientKeysProblem(body) ?? securityProfileProblem({ ...body, public: body.public === true });
  if (keys) throw new MgmtError(400, 'invalid_request', 'invalid request body', keys);
  const clientSecret = body.public ? undefined : newSecret();
  const now = deps.clock.now();
  const ids = { tenantId, appId: newId(), clientId: newSecret(18) };
  const app: Application = {
    ...ids,
    name: body.name,
    clientType: body.public ? 'public' : 'confidential',
    ...(clientSecret
      ? {
          clientSecretHash: sha256(clientSecret),
          clientSecretSealed: deps.secretVault.seal(clientSecret, ids),
        }
      : {}),
    redirectUris: body.redirectUris,
    allowedScopes: body.allowedScopes,
    ciba: body.ciba,
    ...(body.auxLinkPrefix ? { auxLinkPrefix: body.auxLinkPrefix } : {}),
    ...(body.registrationRedirectUri ? { registrationRedirectUri: body.registrationRedirectUri } : {}),
    ...(body.registrationLinkExpiresIn ? { registrationLinkExpiresIn: body.registrationLinkExpiresIn } : {}),
    ...(body.refreshTokens ? { refreshTokens: body.refreshTokens } : {}),
    ...(body.postLogoutRedirectUris.length ? { postLogoutRedirectUris: body.postLogoutRedirectUris } : {}),
    ...(body.backchannelLogoutUri ? { backchannelLogoutUri: body.backchannelLogoutUri } : {}),
    ...(body.backchannelLogoutSessionRequired ? { backchannelLogoutSessionRequired: true } : {}),
    ...(body.tokenEndpointAuthMethod ? { tokenEndpointAuthMethod: body.tokenEndpointAuthMethod } : {}),
    ...(body.jwks ? { jwks: body.jwks } : {}),
    ...(body.jwksUri ? { jwksUri: body.jwksUri } : {}),
    ...(body.requirePushedAuthorizationRequests ? { requirePushedAuthorizationRequests: true } : {}),
    ...(body.requestObjectSigningAlg ? { requestObjectSigningAlg: body.requestObjectSigningAlg } : {}),
    ...(body.dpopBoundAccessTokens ? { dpopBoundAccessTokens: true } : {}),
    ...(body.tlsClientAuthSubjectDn ? { tlsClientAuthSubjectDn: body.tlsClientAuthSubjectDn } : {}),
    ...(body.tlsClientCertificateBoundAccessTokens ? { tlsClientCertificateBoundAccessTokens: true } : {}),
    ...(body.idTokenSignedResponseAlg ? { idTokenSignedResponseAlg: body.idTokenSignedResponseAlg } : {}),
    ...(body.backchannelAuthenticationRequestSigningAlg
      ? { backchannelAuthenticationRequestSigningAlg: body.backchannelAuthenticationRequestSigningAlg }
      : {}),
    ...(body.securityProfile ? { securityProfile: body.securityProfile } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await deps.dir.applications.create(app);
  await emit(tenantId, adminActivity.createApplication, { appId: app.appId, appName: app.name });
  return { ...applicationView(app), ...(clientSecret ? { clientSecret } : {}) };
}
