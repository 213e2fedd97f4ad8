import { oauthErrors } from '@sesame/oauth';

/** The redirect_uri must be the exact string of the authorization request (RFC 6749 §4.1.3). */
export function checkRedirectUri(expected: string, given: string): void {
  if (given !== expected)
    throw oauthErrors.invalidGrant('redirect_uri does not match the authorization request');
}
