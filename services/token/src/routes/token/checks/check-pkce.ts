import { oauthErrors } from '@sesame/oauth';
import { safeEqual, sha256 } from '@sesame/platform';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(code_verifier)) must equal the code's challenge, compared in
 * constant time. A verifier for a code issued without a challenge is refused too (it would prove nothing).
 */
export function checkPkce(codeChallenge: string, codeVerifier: string | undefined): void {
  if (!codeChallenge) {
    if (codeVerifier !== undefined) {
      throw oauthErrors.invalidGrant(
        'code_verifier given but the authorization request had no code_challenge',
      );
    }
    return;
  }
  if (codeVerifier === undefined) throw oauthErrors.invalidGrant('code_verifier is required for this code');
  if (!VERIFIER.test(codeVerifier)) {
    throw oauthErrors.invalidRequest('code_verifier must be 43-128 characters of [A-Za-z0-9-._~]');
  }
  if (!safeEqual(sha256(codeVerifier), codeChallenge))
    throw oauthErrors.invalidGrant('PKCE verification failed');
}
