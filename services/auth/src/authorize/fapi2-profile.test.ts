import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { PAR_REQUEST_URI_PREFIX } from '@sesame/oauth';
import {
  CHALLENGE,
  REDIRECT_URI,
  assertRedirected,
  assertRefused,
  testClient,
  testDeps,
  validParams,
} from './authorize-test-support';
import { parseAuthorizeRequest, parsePushedRequest } from './parse-authorize-request';
import type { RawAuthorizeParams } from './read-params';
import type { AuthorizeDeps } from './types';

const REQUEST_URI = `${PAR_REQUEST_URI_PREFIX}pushed-1`;
const fapiClient = (overrides = {}) =>
  testClient({
    clientId: 'bank-rp',
    securityProfile: 'fapi2',
    tokenEndpointAuthMethod: 'private_key_jwt',
    redirectUris: [REDIRECT_URI, 'http://127.0.0.1:8765/cb', 'http://rp.example/plain'],
    ...overrides,
  });
const pkce = { code_challenge: CHALLENGE, code_challenge_method: 'S256' };

/** The deps of a server at `issuer` holding one pushed request (`pushed`) for bank-rp under REQUEST_URI. */
function fapiDeps(pushed: RawAuthorizeParams, issuer = 'https://auth.example'): AuthorizeDeps {
  const values = validParams({ client_id: 'bank-rp', ...pushed }) as Record<string, string>;
  for (const key of Object.keys(values)) if (values[key] === undefined) delete values[key];
  return {
    ...testDeps({ clients: [fapiClient(), testClient()] }),
    issuer,
    takePushedRequest: async (uri, clientId) =>
      uri === REQUEST_URI && clientId === 'bank-rp' ? values : undefined,
  };
}
const viaPar = (deps: AuthorizeDeps) =>
  parseAuthorizeRequest({ client_id: 'bank-rp', request_uri: REQUEST_URI }, deps);

describe('the FAPI 2.0 profile at /authorize and /par', () => {
  it('takes a pushed code request with PKCE S256', async () => {
    const { client, request } = await viaPar(fapiDeps(pkce));
    assert.equal(client.securityProfile, 'fapi2');
    assert.equal(request.codeChallenge, CHALLENGE);
    assert.equal(request.codeChallengeMethod, 'S256');
  });

  it('refuses a request not pushed through /par (invalid_request, redirected)', async () => {
    await assertRedirected(
      parseAuthorizeRequest(validParams({ client_id: 'bank-rp', ...pkce }), fapiDeps(pkce)),
      'invalid_request',
      'this client must push its authorization request to /par first',
    );
  });

  it('refuses a request without code_challenge, at /par and at /authorize', async () => {
    const description = 'the FAPI 2.0 profile requires code_challenge (PKCE S256)';
    await assertRedirected(viaPar(fapiDeps({})), 'invalid_request', description);
    await assertRedirected(
      parsePushedRequest(validParams({ client_id: 'bank-rp' }), fapiDeps({})),
      'invalid_request',
      description,
    );
    // The same request from a client without the profile is fine (a confidential client may skip PKCE).
    const plain = await parsePushedRequest(validParams(), fapiDeps({}));
    assert.equal(plain.request.codeChallenge, undefined);
  });

  it('refuses plain PKCE and any response_type but code', async () => {
    await assertRedirected(
      viaPar(fapiDeps({ ...pkce, code_challenge_method: 'plain' })),
      'invalid_request',
      'code_challenge_method must be S256',
    );
    await assertRedirected(
      viaPar(fapiDeps({ ...pkce, response_type: 'code id_token' })),
      'unsupported_response_type',
      'only response_type code is supported',
    );
  });

  it('needs TLS: the issuer and the redirect_uri https, http only on loopback', async () => {
    await assertRedirected(
      viaPar(fapiDeps(pkce, 'http://auth.example')),
      'invalid_request',
      'the FAPI 2.0 profile needs TLS: this server does not serve https',
    );
    await viaPar(fapiDeps(pkce, 'http://localhost:8080'));
    await assertRefused(viaPar(fapiDeps({ ...pkce, redirect_uri: 'http://rp.example/plain' })), {
      kind: 'redirect',
      code: 'invalid_request',
      description: 'the FAPI 2.0 profile needs an https redirect_uri',
      redirectUri: 'http://rp.example/plain',
      state: 'st-1',
    });
    const loopback = await viaPar(fapiDeps({ ...pkce, redirect_uri: 'http://127.0.0.1:8765/cb' }));
    assert.equal(loopback.request.redirectUri, 'http://127.0.0.1:8765/cb');
  });
});
