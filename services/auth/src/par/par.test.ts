import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, it } from '@jest/globals';
import { JWT_BEARER_ASSERTION_TYPE } from '@sesame/oauth';
import type { directory } from '@sesame/proto';
import { createTestPki } from '@sesame/testing';
import { type CryptoKey, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { client, startAuth } from '../testing/hosted-test-client';
import { startedForSuite } from '../testing/suite';

const AUTH_URL = 'http://localhost';
const REDIRECT = 'https://rp.example/cb';
const SECRET = 'par-secret';
const other: directory.Client = { ...client, clientId: 'client-2', appId: 'app-2' };
const strict: directory.Client = {
  ...client,
  clientId: 'client-par',
  requirePushedAuthorizationRequests: true,
};
let keyed: directory.Client;
let signingKey: CryptoKey;

const clients = () => [client, other, strict, keyed];
const peers = {
  getClient: async (id: string) => clients().find((c) => c.clientId === id),
  authenticateClient: async (id: string, secret: string) =>
    secret === SECRET ? clients().find((c) => c.clientId === id && !c.tokenEndpointAuthMethod) : undefined,
};

const authorizeParams = (clientId = client.clientId): Record<string, string> => ({
  client_id: clientId,
  response_type: 'code',
  redirect_uri: REDIRECT,
  scope: 'openid email',
  state: 'st-1',
});
const basic = (id: string) => `Basic ${Buffer.from(`${id}:${SECRET}`).toString('base64')}`;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  signingKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1' };
  keyed = {
    ...client,
    clientId: 'client-keyed',
    tokenEndpointAuthMethod: 'private_key_jwt',
    jwks: JSON.stringify({ keys: [jwk] }),
  };
});

describe('PAR (RFC 9126): /par and /authorize with its request_uri', () => {
  const auth = startedForSuite(() => startAuth({ peers }));

  const push = async (form: Record<string, string>, clientId = client.clientId) => {
    const res = await fetch(`${auth.base}/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(clientId) },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  const pushed = async (clientId = client.clientId) => {
    const res = await push(authorizeParams(clientId), clientId);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return String(res.body.request_uri);
  };
  const authorize = (query: Record<string, string>) =>
    auth.browser().request(`/authorize?${new URLSearchParams(query)}`);
  const errorOf = (location: string) => {
    const url = new URL(location);
    return {
      to: `${url.origin}${url.pathname}`,
      error: url.searchParams.get('error'),
      state: url.searchParams.get('state'),
    };
  };

  it('answers 201 with a one-minute urn request_uri, no-store', async () => {
    const res = await push(authorizeParams());
    assert.equal(res.status, 201);
    assert.match(String(res.body.request_uri), /^urn:ietf:params:oauth:request_uri:[\w-]{43}$/);
    assert.equal(res.body.expires_in, 60);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('/authorize with client_id and the request_uri starts the pushed sign-in, once', async () => {
    const requestUri = await pushed();
    const first = await authorize({ client_id: client.clientId, request_uri: requestUri });
    assert.equal(first.status, 200);
    assert.match(first.body, /<form/);
    // Used: with the query naming no redirect target, the error page; with one, a redirect.
    const again = await authorize({ client_id: client.clientId, request_uri: requestUri });
    assert.equal(again.status, 400);
    const redirected = await authorize({ ...authorizeParams(), request_uri: requestUri });
    assert.equal(redirected.status, 302);
    assert.deepEqual(errorOf(redirected.location), {
      to: REDIRECT,
      error: 'invalid_request_uri',
      state: 'st-1',
    });
  });

  it("refuses another client's request_uri, and leaves it to its own client", async () => {
    const requestUri = await pushed();
    const stolen = await authorize({ ...authorizeParams(other.clientId), request_uri: requestUri });
    assert.deepEqual(errorOf(stolen.location).error, 'invalid_request_uri');
    const own = await authorize({ client_id: client.clientId, request_uri: requestUri });
    assert.equal(own.status, 200);
  });

  it('refuses a made-up request_uri with the PAR prefix', async () => {
    const res = await authorize({
      ...authorizeParams(),
      request_uri: 'urn:ietf:params:oauth:request_uri:nope',
    });
    assert.equal(errorOf(res.location).error, 'invalid_request_uri');
  });

  it('refuses /authorize without PAR for an app that requires it: redirect with invalid_request', async () => {
    const res = await authorize(authorizeParams(strict.clientId));
    assert.equal(res.status, 302);
    assert.deepEqual(errorOf(res.location), { to: REDIRECT, error: 'invalid_request', state: 'st-1' });
    const viaPar = await authorize({
      client_id: strict.clientId,
      request_uri: await pushed(strict.clientId),
    });
    assert.equal(viaPar.status, 200);
  });

  it('answers bad parameters as JSON 400 with the same error /authorize redirects with', async () => {
    const changes: Record<string, string>[] = [
      { response_type: 'token' },
      { scope: 'email' },
      { code_challenge_method: 'plain', code_challenge: 'x' },
    ];
    for (const change of changes) {
      const params = { ...authorizeParams(), ...change };
      const direct = errorOf((await authorize(params)).location).error;
      const res = await push(params);
      assert.equal(res.status, 400, JSON.stringify(change));
      assert.equal(res.body.error, direct, JSON.stringify(change));
      assert.equal(typeof res.body.error_description, 'string');
    }
    const unregistered = await push({ ...authorizeParams(), redirect_uri: 'https://evil.example/cb' });
    assert.deepEqual([unregistered.status, unregistered.body.error], [400, 'invalid_request']);
    const withUri = await push({ ...authorizeParams(), request_uri: 'urn:ietf:params:oauth:request_uri:x' });
    assert.deepEqual([withUri.status, withUri.body.error], [400, 'invalid_request']);
  });

  it('refuses a confidential client without its secret, and a wrong one: 401 invalid_client', async () => {
    const bare = await fetch(`${auth.base}/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(authorizeParams()).toString(),
    });
    assert.equal(bare.status, 401);
    assert.equal(((await bare.json()) as { error: string }).error, 'invalid_client');
    const wrong = await fetch(`${auth.base}/par`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.clientId}:nope`).toString('base64')}`,
      },
      body: new URLSearchParams(authorizeParams()).toString(),
    });
    assert.equal(wrong.status, 401);
  });

  it('authenticates a private_key_jwt client whose assertion names /par, the issuer or /token; refuses its replay', async () => {
    const nowS = Math.floor(Date.now() / 1000);
    const assertion = (aud: string, jti: string) =>
      new SignJWT({ iss: keyed.clientId, sub: keyed.clientId, aud, exp: nowS + 60, jti })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .sign(signingKey);
    const send = async (jwt: string) =>
      fetch(`${auth.base}/par`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...authorizeParams(keyed.clientId),
          client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
          client_assertion: jwt,
        }).toString(),
      });
    for (const [aud, jti] of [
      [`${AUTH_URL}/par`, 'a'],
      [AUTH_URL, 'b'],
      [`${AUTH_URL}/token`, 'c'],
    ] as const) {
      assert.equal((await send(await assertion(aud, jti))).status, 201, aud);
    }
    const replay = await send(await assertion(AUTH_URL, 'a'));
    assert.equal(replay.status, 401);
    assert.equal(
      ((await replay.json()) as { error_description: string }).error_description,
      'client_assertion jti has already been used',
    );
  });

  it('discovery lists the PAR endpoint, private_key_jwt and its algorithms', async () => {
    const doc = (await (await fetch(`${auth.base}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(doc.pushed_authorization_request_endpoint, `${AUTH_URL}/par`);
    assert.equal(doc.require_pushed_authorization_requests, false);
    assert.ok((doc.token_endpoint_auth_methods_supported as string[]).includes('private_key_jwt'));
    assert.deepEqual(doc.token_endpoint_auth_signing_alg_values_supported, ['RS256', 'PS256', 'ES256']);
  });
});

describe('PAR required for every client (SESAME_REQUIRE_PAR)', () => {
  const auth = startedForSuite(() => startAuth({ peers, env: { SESAME_REQUIRE_PAR: 'true' } }));

  it("still lets Sesame's first-party console sign in with a plain /authorize", async () => {
    const consoleAuth = await startAuth({
      client: { firstParty: true },
      env: { SESAME_REQUIRE_PAR: 'true' },
    });
    try {
      const res = await consoleAuth.browser().request(`/authorize?${new URLSearchParams(authorizeParams())}`);
      assert.equal(res.status, 200);
    } finally {
      await consoleAuth.stop();
    }
  });

  it('refuses /authorize without request_uri and says so in discovery', async () => {
    const res = await auth.browser().request(`/authorize?${new URLSearchParams(authorizeParams())}`);
    assert.equal(res.status, 302);
    assert.equal(new URL(res.location).searchParams.get('error'), 'invalid_request');
    const doc = (await (await fetch(`${auth.base}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(doc.require_pushed_authorization_requests, true);
  });
});

describe('PAR with mutual-TLS client authentication (RFC 8705)', () => {
  const HEADER = 'x-ssl-client-cert';
  let byKey: directory.Client;
  let bankCert: string;
  let otherCert: string;
  const mtlsPeers = {
    getClient: async (id: string) => (id === byKey.clientId ? byKey : undefined),
    authenticateClient: async () => undefined,
  };
  const auth = startedForSuite(() =>
    startAuth({ peers: mtlsPeers, env: { SESAME_TLS_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert' } }),
  );
  beforeAll(async () => {
    const pki = await createTestPki('par-mtls');
    const bank = await pki.issue('bank-rp');
    bankCert = readFileSync(bank.cert, 'utf8');
    otherCert = readFileSync((await pki.issue('other-rp')).cert, 'utf8');
    const jwk = createPublicKey(createPrivateKey(readFileSync(bank.key, 'utf8'))).export({ format: 'jwk' });
    byKey = {
      ...client,
      clientId: 'client-mtls',
      tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
      jwks: JSON.stringify({ keys: [jwk] }),
    };
  });
  const push = async (cert?: string) => {
    const res = await fetch(`${auth.base}/par`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(cert ? { [HEADER]: encodeURIComponent(cert) } : {}),
      },
      body: new URLSearchParams(authorizeParams(byKey.clientId)).toString(),
    });
    return [res.status, ((await res.json()) as { error?: string }).error];
  };

  it('refuses the client without its certificate or with another one: 401 invalid_client', async () => {
    assert.deepEqual(await push(), [401, 'invalid_client']);
    assert.deepEqual(await push(otherCert), [401, 'invalid_client']);
  });

  it('accepts the client with the certificate whose key it registered', async () => {
    assert.deepEqual(await push(bankCert), [201, undefined]);
  });
});
