import { MgmtError, newSecret, sha256 } from '@sesame/platform';
import type { Application, ApplicationSettings } from '../../directory/model';
import { type Emit, adminActivity } from '../../events/admin-events';
import { settingsDiff } from '../../events/diff';
import type { AdminRouteDeps } from '../deps';
import { requireApplication } from '../views';
import { type UpdateApplicationBody, loopbackEndpointProblem } from './application-schemas';
import { clientKeysProblem } from './client-keys';
import { securityProfileProblem } from './security-profile';

const settingFields = [
  'name',
  'redirectUris',
  'allowedScopes',
  'ciba',
  'auxLinkPrefix',
  'registrationRedirectUri',
  'registrationLinkExpiresIn',
  'refreshTokens',
  'postLogoutRedirectUris',
  'backchannelLogoutUri',
  'backchannelLogoutSessionRequired',
  'tokenEndpointAuthMethod',
  'jwks',
  'jwksUri',
  'requirePushedAuthorizationRequests',
  'requestObjectSigningAlg',
  'dpopBoundAccessTokens',
  'tlsClientAuthSubjectDn',
  'tlsClientCertificateBoundAccessTokens',
  'idTokenSignedResponseAlg',
  'backchannelAuthenticationRequestSigningAlg',
  'securityProfile',
] as const satisfies ReadonlyArray<keyof ApplicationSettings>;

/** Logout settings that say "none" ([] URIs, sid not required) are stored as absent, so they make no empty diffs. */
const LOGOUT_DEFAULTS = new Set<string>([
  'postLogoutRedirectUris',
  'backchannelLogoutSessionRequired',
  'requirePushedAuthorizationRequests',
  'dpopBoundAccessTokens',
  'tlsClientCertificateBoundAccessTokens',
]);
const stored = (field: string, value: unknown) =>
  LOGOUT_DEFAULTS.has(field) && (value === false || (Array.isArray(value) && value.length === 0))
    ? undefined
    : (value ?? undefined);

/** The updated application and, when it has just become confidential, its new secret (to be shown once). */
export interface ApplicationUpdate {
  app: Application;
  clientSecret?: string;
}

/**
 * Applies an update body to an application: fields present change, null clears; `public` switches the client
 * type (to confidential: a new secret, stored as hash and sealed copy and returned to be shown once; to
 * public: the secret's hash and sealed copy are removed, so the old secret stops at once). A real change
 * publishes one administrator_update_application with its diff (the secret never appears in it). The admin
 * API and the console's application page.
 */
export async function updateApplication(
  deps: Pick<AdminRouteDeps, 'dir' | 'clock' | 'secretVault' | 'allowLoopbackEndpoints'>,
  tenantId: string,
  appId: string,
  body: UpdateApplicationBody,
  emit: Emit,
): Promise<ApplicationUpdate> {
  const loopback = loopbackEndpointProblem(body.backchannelLogoutUri, deps.allowLoopbackEndpoints ?? false);
  if (loopback) throw new MgmtError(400, 'invalid_request', 'invalid request body', loopback);
  const before = await requireApplication(deps.dir, tenantId, appId);
  const patch: Partial<ApplicationSettings> = {};
  for (const field of settingFields) {
    if (!(field in body)) continue;
    (patch as Record<string, unknown>)[field] = stored(field, body[field]);
  }
  const saved = { public: body.public ?? before.clientType === 'public', ...before, ...patch };
  const keys = clientKeysProblem(saved) ?? securityProfileProblem(saved);
  if (keys) throw new MgmtError(400, 'invalid_request', 'invalid request body', keys);
  const settingsChanged = settingsDiff(before, { ...before, ...patch }, settingFields);
  const wasPublic = before.clientType === 'public';
  const switchType = body.public !== undefined && body.public !== wasPublic;
  if (!settingsChanged && !switchType) return { app: before };
  const now = deps.clock.now();
  const missing = () => new MgmtError(404, 'application_not_found', 'no such application in this tenant');
  let after: Application | undefined = before;
  if (settingsChanged) {
    after = await deps.dir.applications.update(tenantId, before.appId, { ...patch, updatedAt: now });
    if (!after) throw missing();
  }
  const changes: Record<string, { from: unknown; to: unknown }> = settingsChanged
    ? JSON.parse(settingsChanged)
    : {};
  let clientSecret: string | undefined;
  if (switchType) {
    if (wasPublic) {
      clientSecret = newSecret();
      after = await deps.dir.applications.setClientType(tenantId, before.appId, {
        clientType: 'confidential',
        clientSecretHash: sha256(clientSecret),
        clientSecretSealed: deps.secretVault.seal(clientSecret, before),
        updatedAt: now,
      });
    } else {
      after = await deps.dir.applications.setClientType(tenantId, before.appId, {
        clientType: 'public',
        updatedAt: now,
      });
    }
    if (!after) throw missing();
    changes.public = { from: wasPublic, to: !wasPublic };
    changes.clientSecret = wasPublic ? { from: null, to: 'generated' } : { from: 'hidden', to: 'removed' };
  }
  await emit(tenantId, adminActivity.updateApplication, { diff: JSON.stringify(changes) });
  return clientSecret === undefined ? { app: after } : { app: after, clientSecret };
}
