import { tokenErrors } from '../errors';

/** The redirect_uri must be the exact string of the authorization request (RFC 6749 §4.1.3). */
export function checkRedirectUri(expected: string, given: string): void {
  if (given !== expected)
    throw tokenErrors.invalidGrant('redirect_uri does not match the authorization request');
}
