import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { isOAuthError } from '../../../testing/oauth-error';
import { checkPkce } from './check-pkce';

const VERIFIER = 'dBjftJeZ4CK-P0mWp1u3jJqzdUFtFhPq0MDbP8hGdXk';
// S256 computed independently of the code under test: BASE64URL-ENCODE(SHA256(ASCII(code_verifier))).
const CHALLENGE = createHash('sha256').update(VERIFIER, 'ascii').digest('base64url');
const fails = (fn: () => void, code: string, description: string) =>
  assert.throws(fn, isOAuthError({ code, description }));

describe('checkPkce (S256)', () => {
  it('accepts a verifier whose SHA-256 (base64url) is the challenge', () => {
    assert.doesNotThrow(() => checkPkce(CHALLENGE, VERIFIER));
  });

  it('refuses a verifier that does not hash to the challenge: invalid_grant', () => {
    fails(
      () => checkPkce(CHALLENGE, `${VERIFIER.slice(0, -1)}l`),
      'invalid_grant',
      'PKCE verification failed',
    );
  });

  it('refuses a missing verifier when the code has a challenge: invalid_grant', () => {
    fails(() => checkPkce(CHALLENGE, undefined), 'invalid_grant', 'code_verifier is required for this code');
  });

  it('refuses a verifier outside 43-128 unreserved characters: invalid_request', () => {
    for (const v of ['short', 'a'.repeat(129), `${'a'.repeat(42)}!`]) {
      fails(
        () => checkPkce(CHALLENGE, v),
        'invalid_request',
        'code_verifier must be 43-128 characters of [A-Za-z0-9-._~]',
      );
    }
  });

  it('refuses a verifier for a code issued without a challenge: invalid_grant', () => {
    fails(
      () => checkPkce('', VERIFIER),
      'invalid_grant',
      'code_verifier given but the authorization request had no code_challenge',
    );
  });

  it('accepts no verifier for a code without a challenge', () => {
    assert.doesNotThrow(() => checkPkce('', undefined));
  });
});
