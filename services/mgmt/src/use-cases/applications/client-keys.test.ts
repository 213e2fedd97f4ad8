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
      jwks: 'is used only with tokenEndpointAuthMethod private_key_jwt or self_signed_tls_client_auth, or a requestObjectSigningAlg',
    });
  });
});

describe('mutual-TLS registration (RFC 8705)', () => {
  const keys = { keys: [jwk] };

  it('tls_client_auth needs a subject DN that parses, and a DN needs tls_client_auth', () => {
    assert.deepEqual(clientKeysProblem({ public: false, tokenEndpointAuthMethod: 'tls_client_auth' }), {
      tlsClientAuthSubjectDn: 'tls_client_auth needs tlsClientAuthSubjectDn',
    });
    assert.deepEqual(
      clientKeysProblem({
        public: false,
        tokenEndpointAuthMethod: 'tls_client_auth',
        tlsClientAuthSubjectDn: 'bank',
      }),
      { tlsClientAuthSubjectDn: 'must be a distinguished name such as CN=rp,O=Bank,C=DE' },
    );
    assert.deepEqual(clientKeysProblem({ public: false, tlsClientAuthSubjectDn: 'CN=rp' }), {
      tlsClientAuthSubjectDn: 'is used only with tokenEndpointAuthMethod tls_client_auth',
    });
    assert.deepEqual(
      clientKeysProblem({
        public: false,
        tokenEndpointAuthMethod: 'tls_client_auth',
        tlsClientAuthSubjectDn: 'CN=rp',
        jwks: keys,
      }),
      {
        jwks: 'is used only with tokenEndpointAuthMethod private_key_jwt or self_signed_tls_client_auth, or a requestObjectSigningAlg',
      },
    );
    assert.equal(
      clientKeysProblem({
        public: false,
        tokenEndpointAuthMethod: 'tls_client_auth',
        tlsClientAuthSubjectDn: 'CN=rp,O=Bank\\, Inc.,C=DE',
      }),
      undefined,
    );
  });

  it('self_signed_tls_client_auth needs its keys; neither method is for a public client', () => {
    assert.deepEqual(
      clientKeysProblem({ public: false, tokenEndpointAuthMethod: 'self_signed_tls_client_auth' }),
      {
        jwks: 'self_signed_tls_client_auth needs jwks or jwksUri',
      },
    );
    assert.equal(
      clientKeysProblem({
        public: false,
        tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
        jwks: keys,
      }),
      undefined,
    );
    assert.deepEqual(
      clientKeysProblem({ public: true, tokenEndpointAuthMethod: 'self_signed_tls_client_auth', jwks: keys }),
      { tokenEndpointAuthMethod: 'a public client cannot use self_signed_tls_client_auth' },
    );
  });

  it('the admin API bodies take the DN and the binding flag (null clears the DN)', () => {
    const body = createApplicationBody.parse({
      name: 'Bank',
      tokenEndpointAuthMethod: 'tls_client_auth',
      tlsClientAuthSubjectDn: ' CN=rp,O=Bank ',
      tlsClientCertificateBoundAccessTokens: true,
    });
    assert.deepEqual(
      [body.tokenEndpointAuthMethod, body.tlsClientAuthSubjectDn, body.tlsClientCertificateBoundAccessTokens],
      ['tls_client_auth', 'CN=rp,O=Bank', true],
    );
    assert.equal(updateApplicationBody.parse({ tlsClientAuthSubjectDn: null }).tlsClientAuthSubjectDn, null);
    assert.equal(
      createApplicationBody.safeParse({ name: 'x', tlsClientAuthSubjectDn: 'x'.repeat(1025) }).success,
      false,
    );
  });
});

describe('FAPI-CIBA registration: backchannelAuthenticationRequestSigningAlg', () => {
  it('takes RS256, PS256 or ES256 (null clears it on PATCH) and nothing else', () => {
    for (const alg of ['RS256', 'PS256', 'ES256']) {
      const body = createApplicationBody.parse({
        name: 'x',
        backchannelAuthenticationRequestSigningAlg: alg,
      });
      assert.equal(body.backchannelAuthenticationRequestSigningAlg, alg);
    }
    for (const alg of ['none', 'HS256', 'EdDSA', '']) {
      const parsed = createApplicationBody.safeParse({
        name: 'x',
        backchannelAuthenticationRequestSigningAlg: alg,
      });
      assert.equal(parsed.success, false, alg);
    }
    assert.equal(
      updateApplicationBody.parse({ backchannelAuthenticationRequestSigningAlg: null })
        .backchannelAuthenticationRequestSigningAlg,
      null,
    );
  });

  it('needs the keys that sign the requests, and makes keys without a keyed method acceptable', () => {
    assert.deepEqual(
      clientKeysProblem({ public: false, backchannelAuthenticationRequestSigningAlg: 'ES256' }),
      {
        backchannelAuthenticationRequestSigningAlg:
          'needs the keys that sign authentication requests: jwks or jwksUri',
      },
    );
    // A secret-authenticated CIBA client that signs its requests: its keys verify the requests only.
    assert.equal(
      clientKeysProblem({
        public: false,
        jwks: { keys: [jwk] },
        backchannelAuthenticationRequestSigningAlg: 'ES256',
      }),
      undefined,
    );
    assert.equal(
      clientKeysProblem({
        public: false,
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwksUri: 'https://bank.example/jwks.json',
        backchannelAuthenticationRequestSigningAlg: 'PS256',
      }),
      undefined,
    );
  });
});
