import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { createApplicationBody, updateApplicationBody } from './application-schemas';
import { clientKeysProblem, jwkSet } from './client-keys';

const jwk = { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x', y: 'y' };

describe('private_key_jwt registration', () => {
  it('accepts public RSA/EC keys and refuses private, symmetric or empty sets', () => {
    assert.ok(jwkSet.safeParse({ keys: [jwk, { kty: 'RSA', n: 'n', e: 'AQAB' }] }).success);
    for (const bad of [
      { keys: [] },
      { keys: [{ ...jwk, d: 'secret' }] },
      { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] },
      { keys: [jwk], extra: true },
    ]) {
      assert.equal(jwkSet.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('the admin API bodies take the method, keys, jwksUri and the PAR rule', () => {
    const body = createApplicationBody.parse({
      name: 'Bank',
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwksUri: 'https://bank.example/jwks.json',
      requirePushedAuthorizationRequests: true,
    });
    assert.equal(body.tokenEndpointAuthMethod, 'private_key_jwt');
    assert.equal(body.jwksUri, 'https://bank.example/jwks.json');
    assert.equal(
      createApplicationBody.safeParse({ name: 'x', tokenEndpointAuthMethod: 'client_secret_jwt' }).success,
      false,
    );
    assert.equal(
      createApplicationBody.safeParse({ name: 'x', jwksUri: 'https://169.254.169.254/k' }).success,
      false,
    );
    assert.equal(
      updateApplicationBody.parse({ tokenEndpointAuthMethod: null }).tokenEndpointAuthMethod,
      null,
    );
  });

  it('needs a confidential client and exactly one source of keys', () => {
    const keys = { keys: [jwk] };
    const uri = 'https://bank.example/jwks.json';
    assert.equal(
      clientKeysProblem({ public: false, tokenEndpointAuthMethod: 'private_key_jwt', jwks: keys }),
      undefined,
    );
    assert.equal(
      clientKeysProblem({ public: false, tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: uri }),
      undefined,
    );
    assert.deepEqual(clientKeysProblem({ public: false, tokenEndpointAuthMethod: 'private_key_jwt' }), {
      jwks: 'private_key_jwt needs jwks or jwksUri',
    });
    assert.deepEqual(
      clientKeysProblem({
        public: false,
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: keys,
        jwksUri: uri,
      }),
      { jwksUri: 'give jwks or jwksUri, not both' },
    );
    assert.deepEqual(
      clientKeysProblem({ public: true, tokenEndpointAuthMethod: 'private_key_jwt', jwks: keys }),
      {
        tokenEndpointAuthMethod: 'a public client cannot use private_key_jwt',
      },
    );
    assert.deepEqual(clientKeysProblem({ public: false, jwks: keys }), {
      jwks: 'is used only with tokenEndpointAuthMethod private_key_jwt or a requestObjectSigningAlg',
    });
  });
});
