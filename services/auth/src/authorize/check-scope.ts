import { SCOPES, oauthErrors as problems } from '@sesame/oauth';
import type { directory } from '@sesame/proto';

const supported: ReadonlySet<string> = new Set(SCOPES);
/** Not governed by an app's allowedScopes: profile grants no claim, offline_access is token's to grant. */
const UNRESTRICTED: ReadonlySet<string> = new Set(['profile', 'offline_access']);

/**
 * scope must include openid. Values Sesame does not understand are ignored and not granted (OIDC Core
 * 3.1.2.1, RFC 6749 3.3): a standard RP's default `openid email profile` works. Of the understood ones
 * (@sesame/oauth SCOPES), a client whose registration lists allowed scopes may ask for the claim scopes it
 * lists only (unauthorized_client: the scope exists, this client may not have it); profile and
 * offline_access are not listed there (token grants offline_access only to an app allowing refresh tokens).
 * Returns each understood scope once, openid first.
 */
export function checkScope(scope: string | undefined, client: directory.Client): string[] {
  if (scope === undefined) throw problems.invalidRequest('scope is required');
  const scopes = new Set(scope.split(' ').filter((s) => supported.has(s)));
  if (!scopes.has('openid')) throw problems.invalidScope('scope must include openid');
  const allowed = new Set(client.allowedScopes);
  if (allowed.size > 0 && [...scopes].some((s) => !allowed.has(s) && !UNRESTRICTED.has(s))) {
    throw problems.unauthorizedClient('scope includes a scope this client is not allowed to request');
  }
  scopes.delete('openid');
  return ['openid', ...scopes];
}
