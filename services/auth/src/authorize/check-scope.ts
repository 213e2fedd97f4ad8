import { SCOPES, oauthErrors as problems } from '@sesame/oauth';
import type { directory } from '@sesame/proto';

const supported: ReadonlySet<string> = new Set(SCOPES);

/**
 * scope must include openid; the others are email, phone and svc_network_info (spec 4.2). A client whose
 * registration lists allowed scopes may ask only for those (unauthorized_client: the scope exists, this
 * client may not have it). Returns each scope once, openid first.
 */
export function checkScope(scope: string | undefined, client: directory.Client): string[] {
  if (scope === undefined) throw problems.invalidRequest('scope is required');
  const scopes = new Set(scope.split(' ').filter(Boolean));
  if (!scopes.has('openid')) throw problems.invalidScope('scope must include openid');
  if ([...scopes].some((s) => !supported.has(s))) {
    throw problems.invalidScope(`scope may only contain ${SCOPES.join(', ')}`);
  }
  const allowed = new Set(client.allowedScopes);
  if (allowed.size > 0 && [...scopes].some((s) => !allowed.has(s))) {
    throw problems.unauthorizedClient('scope includes a scope this client is not allowed to request');
  }
  scopes.delete('openid');
  return ['openid', ...scopes];
}
