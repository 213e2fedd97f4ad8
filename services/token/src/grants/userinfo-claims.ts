import type { grants } from '@sesame/proto';
import type { UserinfoClaims } from './types';

/**
 * The UserInfo claims of a grant (OIDC Core 5.3.2, 5.4): sub always; email and email_verified with scope
 * email, phone_number and phone_number_verified with scope phone, each only when Sesame knows it. profile
 * adds nothing: Sesame keeps none of its claims and invents none.
 */
export function userinfoClaims(scope: string, claims: grants.AuthenticatedClaims): UserinfoClaims {
  const scopes = new Set(scope.split(' '));
  const answer: UserinfoClaims = { sub: claims.sub };
  if (scopes.has('email') && claims.email) {
    answer.email = claims.email;
    answer.email_verified = claims.emailVerified ?? false;
  }
  if (scopes.has('phone') && claims.phoneNumber) {
    answer.phone_number = claims.phoneNumber;
    answer.phone_number_verified = claims.phoneNumberVerified ?? false;
  }
  return answer;
}
