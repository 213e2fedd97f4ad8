import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ClientJwks, signedRequestObjectVerifier } from '@sesame/oauth';
import { directory } from '@sesame/proto';
import { compactDecrypt } from 'jose';
import { AuthorizeError } from './authorize-error';
import { parseAuthorizeRequest } from './parse-authorize-request';
import type { RawAuthorizeParams } from './read-params';
import { UndecryptableRequestObject } from './request-object';
import type { AuthorizeDeps, ValidAuthorization } from './types';

type DecryptionKey = Parameters<typeof compactDecrypt>[1];

export const REDIRECT_URI = 'https://rp.example/callback';
export const ISSUER = 'https://auth.example';
export const VERIFIER = 'dBjftJeZ4CK-P0mWp1u3jJqzdUFtFhPq0MDbP8hGdXk';
/** BASE64URL(SHA-256(VERIFIER)), computed here independently of the code under test. */
export const CHALLENGE = createHash('sha256').update(VERIFIER, 'ascii').digest('base64url');

export function testClient(overrides: Partial<directory.Client> = {}): directory.Client {
  return {
    tenantId: 'tenant-1',
    appId: 'app-1',
    clientId: 'client-1',
    appName: 'Shop',
    type: directory.ClientType.CLIENT_TYPE_CONFIDENTIAL,
    redirectUris: [REDIRECT_URI, 'https://rp.example/other'],
    allowedScopes: [],
    auxLinkPrefix: 'https://rp.example/help/',
    registrationRedirectUri: '',
    blockedCountries: [],
    postLogoutRedirectUris: [],
    backchannelLogoutUri: '',
    backchannelLogoutSessionRequired: false,
    firstParty: false,
    tokenEndpointAuthMethod: '',
    jwks: '',
    jwksUri: '',
    requirePushedAuthorizationRequests: false,
    requestObjectSigningAlg: '',
    dpopBoundAccessTokens: false,
    tlsClientAuthSubjectDn: '',
    tlsClientCertificateBoundAccessTokens: false,
    idTokenSignedResponseAlg: '',
    backchannelAuthenticationRequestSigningAlg: '',
    securityProfile: '',
    ...overrides,
  };
}

/**
 * A confidential client-1, a public client-public; request objects decrypted with `key` by jose, signed ones
 * verified at `now` (epoch ms, default the real time) with ISSUER as their aud.
 */
export function testDeps(
  options: {
    clients?: directory.Client[];
    key?: DecryptionKey;
    decrypted?: string[];
    now?: () => number;
    fetch?: (url: string, init: RequestInit) => Promise<Response>;
  } = {},
): AuthorizeDeps {
  const clock = { now: options.now ?? Date.now };
  const jwks = new ClientJwks(clock, undefined, options.fetch);
  const clients = options.clients ?? [
    testClient(),
    testClient({ clientId: 'client-public', type: directory.ClientType.CLIENT_TYPE_PUBLIC }),
  ];
  return {
    getClient: async (clientId) => clients.find((c) => c.clientId === clientId),
    verifySignedRequestObject: signedRequestObjectVerifier({ clock, jwks, issuer: ISSUER }),
    decryptRequestObject: async (jwe) => {
      options.decrypted?.push(jwe);
      if (!options.key) throw new UndecryptableRequestObject('no key in this test');
      try {
        return (await compactDecrypt(jwe, options.key)).plaintext;
      } catch {
        throw new UndecryptableRequestObject();
      }
    },
  };
}

/** A minimal valid request for client-1; `overrides` replace or (with undefined) remove parameters. */
export function validParams(overrides: RawAuthorizeParams = {}): RawAuthorizeParams {
  return {
    client_id: 'client-1',
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid',
    state: 'st-1',
    ...overrides,
  };
}

export function parse(overrides: RawAuthorizeParams, deps = testDeps()): Promise<ValidAuthorization> {
  return parseAuthorizeRequest(validParams(overrides), deps);
}

interface Expected {
  kind: 'page' | 'redirect';
  code: string;
  description: string;
  redirectUri?: string;
  state?: string;
}

/** Asserts the exact refusal: kind, code, description and (for a redirect) the target and state. */
export async function assertRefused(promise: Promise<unknown>, expected: Expected): Promise<void> {
  const err = await promise.then(
    () => assert.fail('expected an AuthorizeError'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof AuthorizeError, `expected AuthorizeError, got ${String(err)}`);
  assert.deepEqual(
    {
      kind: err.kind,
      code: err.code,
      description: err.description,
      redirectUri: err.redirectUri,
      state: err.state,
    },
    { redirectUri: undefined, state: undefined, ...expected },
  );
}

/** A redirect refusal to the default target with state st-1. */
export function assertRedirected(
  promise: Promise<unknown>,
  code: string,
  description: string,
): Promise<void> {
  return assertRefused(promise, {
    kind: 'redirect',
    code,
    description,
    redirectUri: REDIRECT_URI,
    state: 'st-1',
  });
}

/** `parse(params, deps)` is refused back to the client with invalid_request and this description. */
export function assertInvalidRequest(
  params: RawAuthorizeParams,
  description: string,
  deps = testDeps(),
): Promise<void> {
  return assertRedirected(parse(params, deps), 'invalid_request', description);
}
