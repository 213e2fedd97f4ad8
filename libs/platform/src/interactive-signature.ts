import { createHmac } from 'node:crypto';

/**
 * The Authorization scheme of interactive init (spec 4.9 and 5.4, decided in ARCHITECTURE §7):
 * `Sesame AccessToken <access_token>; <signature>`, where the access token is the one the RP received from
 * the user's code exchange and the signature is base64url (no padding) of HMAC-SHA256 keyed by the app's
 * client secret (its UTF-8 bytes) over the access token (its UTF-8 bytes). Shared by mgmt (which checks it),
 * the CLI (`npm run sesame -- interactive sign`) and the tests, so all three compute the same thing.
 */
export const INTERACTIVE_AUTH_SCHEME = 'Sesame';

export function interactiveSignature(accessToken: string, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(accessToken, 'utf8').digest('base64url');
}

/** The header value an RP sends. */
export function interactiveAuthorization(accessToken: string, clientSecret: string): string {
  return `${INTERACTIVE_AUTH_SCHEME} AccessToken ${accessToken}; ${interactiveSignature(accessToken, clientSecret)}`;
}

// The scheme word is case-insensitive (RFC 9110 §11.1); everything after it is exact: one space, the word
// AccessToken, one space, a b64token (RFC 6750 §2.1), a semicolon, one space, 43 base64url characters.
const HEADER = /^Sesame AccessToken ([A-Za-z0-9\-._~+/]+=*); ([A-Za-z0-9_-]{43})$/i;

/** The access token and signature of a well-formed header, or undefined. */
export function parseInteractiveAuthorization(
  header: string | undefined,
): { accessToken: string; signature: string } | undefined {
  const match = header ? HEADER.exec(header) : null;
  // The flag makes the whole pattern case-insensitive; only the scheme word may differ in case.
  if (!match || !header!.slice(7).startsWith('AccessToken ')) return undefined;
  return { accessToken: match[1]!, signature: match[2]! };
}
