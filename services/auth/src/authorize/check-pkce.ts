import { isFapi2, oauthErrors as problems } from '@sesame/oauth';
import { directory } from '@sesame/proto';

// BASE64URL(SHA-256(verifier)) is always 43 characters without padding (RFC 7636 §4.2).
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export interface Pkce {
  codeChallenge: string;
  codeChallengeMethod: 'S256';
}

/**
 * PKCE with S256 only (spec 8). A challenge without a method means plain (RFC 7636 §4.3), so it is refused
 * like an explicit plain. A public client has no secret, so the challenge is its only proof at /token: it
 * must send one, and so must a FAPI 2.0 client (§5.3.2.2).
 */
export function checkPkce(
  codeChallenge: string | undefined,
  codeChallengeMethod: string | undefined,
  client: directory.Client,
): Pkce | undefined {
  if (codeChallenge === undefined) {
    if (codeChallengeMethod !== undefined) {
      throw problems.invalidRequest('code_challenge_method given without code_challenge');
    }
    if (client.type === directory.ClientType.CLIENT_TYPE_PUBLIC) {
      throw problems.invalidRequest('a public client must send code_challenge (PKCE S256)');
    }
    if (isFapi2(client)) {
      throw problems.invalidRequest('the FAPI 2.0 profile requires code_challenge (PKCE S256)');
    }
    return undefined;
  }
  if (codeChallengeMethod === undefined) {
    throw problems.invalidRequest('code_challenge_method is required: only S256 is supported, not plain');
  }
  if (codeChallengeMethod !== 'S256') throw problems.invalidRequest('code_challenge_method must be S256');
  if (!S256_CHALLENGE.test(codeChallenge)) {
    throw problems.invalidRequest('code_challenge must be 43 base64url characters (S256)');
  }
  return { codeChallenge, codeChallengeMethod: 'S256' };
}
