import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, it } from '@jest/globals';
import { JWT_BEARER_ASSERTION_TYPE } from '@sesame/oauth';
import type { directory } from '@sesame/proto';
import { createTestPki } from '@sesame/testing';
import { type CryptoKey, type JWK, SignJWT, UnsecuredJWT, exportJWK, generateKeyPair } from 'jose';
import { SECRET, authorizeCiba, createTenantUser, fakeGrants, pingClient, pollClient } from '../testing/ciba';
import { startAuth } from '../testing/hosted-test-client';
import { startedForSuite } from '../testing/suite';
import { memoryUserStore } from '../users';

const ISSUER = 'http://localhost';
const CERT_HEADER = 'x-ssl-client-cert';
const nowS = () => Math.floor(Date.now() / 1000);

interface Signer {
  alg: string;
  key: CryptoKey;
  jwk: JWK;
}
async function signer(alg: string, kid: string): Promise<Signer> {
  const pair = await generateKeyPair(alg, { extractable: true });
  return { alg, key: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid } };
}

/**
 * FAPI-CIBA at /authorize_ciba: signed authentication requests (CIBA Core 7.1.1) by the client's keys, with
 * private_key_jwt, a secret or mutual TLS; backchannelAuthenticationRequestSigningAlg refusing plain requests.
 * Every refusal is checked with its exact code and description.
 */
describe('POST /authorize_ciba with a signed authentication request (FAPI-CIBA)', () => {
  const grants = fakeGrants();
  let ps: Signer;
  let es: Signer;
  let rs: Signer;
  let stranger: Signer;
  let certPem: string;
  let certJwk: JWK;
  const clients = new Map<string, directory.Client>();
  const keyed = (id: string, extra: Partial<directory.Client>): directory.Client => ({
    ...pollClient,
    clientId: id,
    tokenEndpointAuthMethod: 'private_key_jwt',
    jwks: JSON.stringify({ keys: [ps.jwk, es.jwk, rs.jwk] }),
    ...extra,
  });
  beforeAll(async () => {
    ps = await signer('PS256', 'ps');
    es = await signer('ES256', 'es');
    rs = await signer('RS256', 'rs');
    stranger = await signer('PS256', 'ps');
    const pki = await createTestPki('fapi-ciba');
    const files = await pki.issue('bank-ciba');
    certPem = readFileSync(files.cert, 'utf8');
    certJwk = createPublicKey(createPrivateKey(readFileSync(files.key, 'utf8'))).export({
      format: 'jwk',
    }) as JWK;
    for (const c of [
      keyed('fapi-poll', {}),
      keyed('fapi-ping', { ciba: pingClient.ciba }),
      keyed('fapi-es256', { backchannelAuthenticationRequestSigningAlg: 'ES256' }),
      // Authenticated by its secret; its keys only verify its signed requests.
      keyed('secret-signed', {
        tokenEndpointAuthMethod: '',
        backchannelAuthenticationRequestSigningAlg: 'PS256',
      }),
      keyed('no-keys', { tokenEndpointAuthMethod: '', jwks: '' }),
      keyed('fapi-mtls', {
        tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
        jwks: JSON.stringify({ keys: [certJwk, ps.jwk] }),
        backchannelAuthenticationRequestSigningAlg: 'PS256',
      }),
    ])
      clients.set(c.clientId, c);
  });
  const auth = startedForSuite(async () => {
    const userStore = memoryUserStore();
    await createTenantUser(userStore, 'ann@example.com');
    return startAuth({
      userStore,
      env: { SESAME_TLS_CLIENT_CERT_HEADER: CERT_HEADER },
      peers: {
        ...grants.peers,
        getClient: async (id) => clients.get(id),
        authenticateClient: async (id, secret) => {
          const c = clients.get(id);
          if (c && !c.tokenEndpointAuthMethod && secret === SECRET) return c;
          return grants.peers.authenticateClient?.(id, secret);
        },
      },
    });
  });

  const assertion = (clientId: string) =>
    new SignJWT({ iss: clientId, sub: clientId, aud: ISSUER, exp: nowS() + 60, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'PS256', kid: 'ps' })
      .sign(ps.key);
  const CIBA_CLAIMS = {
    scope: 'openid email',
    login_hint: 'ann@example.com',
    binding_message: 'Pay 42 EUR to ACME',
    channel: { type: 'direct_link' },
  };
  const signedRequest = (
    clientId: string,
    claims: Record<string, unknown> = {},
    by: Signer = ps,
    header: Record<string, unknown> = {},
  ) =>
    new SignJWT({
      iss: clientId,
      aud: ISSUER,
      iat: nowS(),
      nbf: nowS(),
      exp: nowS() + 300,
      jti: crypto.randomUUID(),
      ...CIBA_CLAIMS,
      ...claims,
    })
      .setProtectedHeader({ alg: by.alg, kid: by.jwk.kid as string, ...header })
      .sign(by.key);
  const send = async (clientId: string, request: string, extra: Record<string, string> = {}) =>
    authorizeCiba(auth.base, {
      client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
      client_assertion: await assertion(clientId),
      request,
      ...extra,
    });
  const refusal = (res: { status: number; body: Record<string, unknown> }) => [
    res.status,
    res.body.error,
    res.body.error_description,
  ];

  it('starts a poll request from a PS256, ES256 or RS256 request, with the parameters of the JWT', async () => {
    for (const by of [ps, es, rs]) {
      const res = await send('fapi-poll', await signedRequest('fapi-poll', {}, by));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(typeof res.body.link, 'string');
      const start = grants.requests.get(String(res.body.auth_req_id))?.start;
      assert.deepEqual([start?.clientId, start?.scope], ['fapi-poll', 'openid email']);
    }
  });

  it('starts a ping request: client_notification_token comes from the JWT', async () => {
    const request = await signedRequest('fapi-ping', { client_notification_token: 'ping-token-123' });
    const res = await send('fapi-ping', request);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const start = grants.requests.get(String(res.body.auth_req_id))?.start;
    assert.equal(start?.clientNotificationToken, 'ping-token-123');
    // Without it the ping request is refused exactly as a plain one is.
    const without = await send('fapi-ping', await signedRequest('fapi-ping'));
    assert.deepEqual([without.status, without.body.error], [400, 'invalid_request']);
  });

  it('refuses a bad signature, a wrong aud, a wrong iss, an expired request: 400 invalid_request', async () => {
    const cases: Array<[string, string]> = [
      [
        await signedRequest('fapi-poll', {}, stranger),
        'signed authentication request signature is not valid',
      ],
      [
        await signedRequest('fapi-poll', { aud: `${ISSUER}/token` }),
        'signed authentication request aud must be the issuer',
      ],
      [
        await signedRequest('fapi-poll', { iss: 'someone-else' }),
        "signed authentication request iss must be the client's client_id",
      ],
      [
        await signedRequest('fapi-poll', { iat: nowS() - 600, nbf: nowS() - 600, exp: nowS() - 120 }),
        'signed authentication request has expired (exp)',
      ],
      [
        await signedRequest('fapi-poll', { exp: nowS() + 2 * 3600 }),
        'signed authentication request exp must be at most 3600 seconds ahead',
      ],
      [
        await signedRequest('fapi-poll', { nbf: nowS() - 3000, exp: nowS() + 1000 }),
        'signed authentication request must be valid for at most 3600 seconds',
      ],
      [
        await signedRequest('fapi-poll', { nbf: nowS() + 600 }),
        'signed authentication request is not valid yet (nbf)',
      ],
      [
        await signedRequest('fapi-poll', { iat: nowS() + 600 }),
        'signed authentication request iat is in the future',
      ],
      [
        await signedRequest('fapi-poll', { client_id: 'fapi-ping' }),
        "signed authentication request client_id must be the client's client_id",
      ],
      [
        await signedRequest('fapi-poll', { scope: ['openid'] }),
        'signed authentication request member scope must be a string',
      ],
      ['not-a-jwt', 'request is not a JWT with a readable header'],
    ];
    for (const [request, description] of cases) {
      assert.deepEqual(
        refusal(await send('fapi-poll', request)),
        [400, 'invalid_request', description],
        description,
      );
    }
  });

  it('refuses a request without exp, iat, nbf or jti (CIBA Core 7.1.1 requires them all)', async () => {
    for (const claim of ['exp', 'iat', 'nbf', 'jti']) {
      const request = await signedRequest('fapi-poll', { [claim]: undefined });
      assert.deepEqual(
        refusal(await send('fapi-poll', request)),
        [400, 'invalid_request', `signed authentication request must contain ${claim}`],
        claim,
      );
    }
  });

  it('refuses a replayed request (its jti) even with a fresh client assertion', async () => {
    const request = await signedRequest('fapi-poll');
    assert.equal((await send('fapi-poll', request)).status, 200);
    assert.deepEqual(refusal(await send('fapi-poll', request)), [
      400,
      'invalid_request',
      'signed authentication request jti has already been used',
    ]);
  });

  it('refuses alg none and HS256, and an alg other than the registered one', async () => {
    const unsecured = new UnsecuredJWT({ iss: 'fapi-poll', aud: ISSUER, ...CIBA_CLAIMS }).encode();
    assert.deepEqual(refusal(await send('fapi-poll', unsecured)), [
      400,
      'invalid_request',
      "request must be signed with RS256, PS256, ES256 (this client's keys)",
    ]);
    const hs = await new SignJWT({ iss: 'fapi-poll', aud: ISSUER, ...CIBA_CLAIMS })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(32)));
    assert.deepEqual(refusal(await send('fapi-poll', hs))[1], 'invalid_request');
    assert.deepEqual(refusal(await send('fapi-es256', await signedRequest('fapi-es256', {}, ps))), [
      400,
      'invalid_request',
      "request must be signed with ES256 (this client's keys)",
    ]);
    assert.equal((await send('fapi-es256', await signedRequest('fapi-es256', {}, es))).status, 200);
  });

  it('refuses a plain (unsigned) request when the app sets backchannelAuthenticationRequestSigningAlg', async () => {
    const plain = await authorizeCiba(auth.base, {
      client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
      client_assertion: await assertion('fapi-es256'),
      scope: 'openid email',
      login_hint: 'ann@example.com',
      channel: JSON.stringify({ type: 'direct_link' }),
    });
    assert.deepEqual(refusal(plain), [
      400,
      'invalid_request',
      "this client's authentication requests must be signed with ES256 (the request parameter)",
    ]);
    // Without the setting, a plain request still works (Sesame's own channels, unchanged).
    const ok = await authorizeCiba(auth.base, {
      client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
      client_assertion: await assertion('fapi-poll'),
      scope: 'openid email',
      login_hint: 'ann@example.com',
      channel: JSON.stringify({ type: 'direct_link' }),
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('refuses request parameters beside the signed request (only client authentication may be outside)', async () => {
    const res = await send('fapi-poll', await signedRequest('fapi-poll'), { login_hint: 'ann@example.com' });
    assert.deepEqual(refusal(res), [
      400,
      'invalid_request',
      'with a signed request, login_hint must be inside it, not beside it (CIBA Core 7.1.1)',
    ]);
  });

  it('takes a signed request from a client authenticated by its secret; refuses one from a client without keys', async () => {
    const ok = await authorizeCiba(auth.base, {
      client_id: 'secret-signed',
      client_secret: SECRET,
      request: await signedRequest('secret-signed'),
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const none = await authorizeCiba(auth.base, {
      client_id: 'no-keys',
      client_secret: SECRET,
      request: await signedRequest('no-keys'),
    });
    assert.deepEqual(refusal(none), [
      400,
      'invalid_request',
      'the client has no registered keys (jwks or jwks_uri) to verify the signed request',
    ]);
  });

  it('checks client authentication before the request: a bad assertion is 401 invalid_client', async () => {
    const res = await authorizeCiba(auth.base, {
      client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
      client_assertion: 'x.y.z',
      request: await signedRequest('fapi-poll'),
    });
    assert.deepEqual([res.status, res.body.error], [401, 'invalid_client']);
  });

  describe('mutual TLS at /authorize_ciba (self_signed_tls_client_auth)', () => {
    const der = () => Buffer.from(new X509Certificate(certPem).raw).toString('base64');

    it('authenticates the client by its forwarded certificate, with a signed request', async () => {
      const res = await authorizeCiba(
        auth.base,
        { client_id: 'fapi-mtls', request: await signedRequest('fapi-mtls') },
        { [CERT_HEADER]: der() },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(grants.requests.get(String(res.body.auth_req_id))?.start.clientId, 'fapi-mtls');
      const nginx = await authorizeCiba(
        auth.base,
        { client_id: 'fapi-mtls', request: await signedRequest('fapi-mtls') },
        { [CERT_HEADER]: encodeURIComponent(certPem) },
      );
      assert.equal(nginx.status, 200, JSON.stringify(nginx.body));
    });

    it('refuses it without a certificate, with a garbled one, or with its secret: 401 invalid_client', async () => {
      const form = async () => ({ client_id: 'fapi-mtls', request: await signedRequest('fapi-mtls') });
      assert.deepEqual(refusal(await authorizeCiba(auth.base, await form())).slice(0, 2), [
        401,
        'invalid_client',
      ]);
      const garbled = await authorizeCiba(auth.base, await form(), { [CERT_HEADER]: 'not-a-certificate' });
      assert.deepEqual([garbled.status, garbled.body.error], [401, 'invalid_client']);
      const secret = await authorizeCiba(auth.base, { ...(await form()), client_secret: SECRET });
      assert.deepEqual([secret.status, secret.body.error], [401, 'invalid_client']);
    });

    it('still refuses client_id alone for a client that is not registered for mutual TLS', async () => {
      const res = await authorizeCiba(
        auth.base,
        { client_id: 'fapi-poll', request: await signedRequest('fapi-poll') },
        { [CERT_HEADER]: der() },
      );
      assert.deepEqual([res.status, res.body.error], [401, 'invalid_client']);
    });
  });
});
