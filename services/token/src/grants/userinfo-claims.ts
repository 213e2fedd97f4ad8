import type { grants } from '@sesame/proto';
import { type RequestedClaims, standardClaims } from './requested-claims';
import type { UserinfoClaims } from './types';

/**
 * The UserInfo claims of a grant (OIDC Core 5.3.2, 5.4, 5.5): sub always; email and email_verified with scope
 * email, phone_number and phone_number_verified with scope phone, and those the claims parameter's userinfo
 * member named, each only when Sesame knows it and it has the value the member named, if any. profile adds
 * nothing: Sesame keeps none of its claims and invents none.
 */
export function userinfoClaims(
  scope: string,
  claims: grants.AuthenticatedClaims,
  requested?: RequestedClaims,
): UserinfoClaims {
  return { sub: claims.sub, ...standardClaims('userinfo', scope, claims, requested) } as UserinfoClaims;
}
