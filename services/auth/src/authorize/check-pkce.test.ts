import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CHALLENGE, assertInvalidRequest, parse } from './authorize-test-support';

describe('PKCE', () => {
  it('returns an S256 challenge', async () => {
    const { request } = await parse({ code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    assert.equal(request.codeChallenge, CHALLENGE);
    assert.equal(request.codeChallengeMethod, 'S256');
  });

  it('refuses plain with invalid_request', async () => {
    await assertInvalidRequest(
      { code_challenge: CHALLENGE, code_challenge_method: 'plain' },
      'code_challenge_method must be S256',
    );
  });

  it('refuses a challenge without a method (RFC 7636 default plain) with invalid_request', async () => {
    await assertInvalidRequest(
      { code_challenge: CHALLENGE },
      'code_challenge_method is required: only S256 is supported, not plain',
    );
  });

  it('refuses a challenge that is not 43 base64url characters with invalid_request', async () => {
    for (const challenge of [
      CHALLENGE.slice(1),
      `${CHALLENGE}A`,
      `${CHALLENGE.slice(1)}=`,
      `${CHALLENGE.slice(1)}+`,
    ]) {
      await assertInvalidRequest(
        { code_challenge: challenge, code_challenge_method: 'S256' },
        'code_challenge must be 43 base64url characters (S256)',
      );
    }
  });

  it('refuses a method without a challenge with invalid_request', async () => {
    await assertInvalidRequest(
      { code_challenge_method: 'S256' },
      'code_challenge_method given without code_challenge',
    );
  });

  it('refuses a public client without a challenge with invalid_request', async () => {
    await assertInvalidRequest(
      { client_id: 'client-public' },
      'a public client must send code_challenge (PKCE S256)',
    );
  });

  it('lets a public client with a challenge through, and a confidential client without one', async () => {
    const pub = await parse({
      client_id: 'client-public',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    });
    assert.equal(pub.request.codeChallenge, CHALLENGE);
    assert.equal('codeChallenge' in (await parse({})).request, false);
  });
});
