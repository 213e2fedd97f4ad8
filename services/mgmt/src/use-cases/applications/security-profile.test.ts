import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { createApplicationBody, updateApplicationBody } from './application-schemas';
import { securityProfileProblem } from './security-profile';

const fapi = {
  public: false,
  securityProfile: 'fapi2' as const,
  tokenEndpointAuthMethod: 'private_key_jwt' as const,
  redirectUris: ['https://rp.bank.example/cb', 'http://127.0.0.1:8765/cb', 'http://localhost/cb'],
};

describe('FAPI 2.0 profile registration', () => {
  it('takes a confidential app with private_key_jwt or mutual TLS and https (or loopback) redirect URIs', () => {
    assert.equal(securityProfileProblem(fapi), undefined);
    for (const method of ['tls_client_auth', 'self_signed_tls_client_auth'] as const)
      assert.equal(securityProfileProblem({ ...fapi, tokenEndpointAuthMethod: method }), undefined);
  });

  it('refuses a public client', () => {
    assert.deepEqual(securityProfileProblem({ ...fapi, public: true }), {
      securityProfile: 'the FAPI 2.0 profile needs a confidential client',
    });
  });

  it('refuses the client secret methods (or none named)', () => {
    const problem = {
      tokenEndpointAuthMethod:
        'the FAPI 2.0 profile needs private_key_jwt, tls_client_auth or self_signed_tls_client_auth',
    };
    for (const method of ['client_secret_basic', 'client_secret_post', undefined] as const)
      assert.deepEqual(securityProfileProblem({ ...fapi, tokenEndpointAuthMethod: method }), problem);
  });

  it('refuses an http redirect URI that is not on loopback', () => {
    assert.deepEqual(
      securityProfileProblem({ ...fapi, redirectUris: ['https://rp.example/cb', 'http://rp.example/cb'] }),
      {
        redirectUris:
          'the FAPI 2.0 profile needs https redirect URIs (http only on loopback): http://rp.example/cb',
      },
    );
  });

  it('asks nothing of an app without the profile', () => {
    assert.equal(
      securityProfileProblem({
        public: true,
        tokenEndpointAuthMethod: undefined,
        redirectUris: ['http://rp.example/cb'],
      }),
      undefined,
    );
  });

  it('the admin API bodies take fapi2 only; null clears it', () => {
    assert.equal(
      createApplicationBody.parse({ name: 'Bank', securityProfile: 'fapi2' }).securityProfile,
      'fapi2',
    );
    assert.equal(createApplicationBody.safeParse({ name: 'Bank', securityProfile: 'fapi1' }).success, false);
    assert.equal(updateApplicationBody.parse({ securityProfile: null }).securityProfile, null);
  });
});
