import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import type { directory } from '@sesame/proto';
import { CompactEncrypt, type JWK, SignJWT, UnsecuredJWT, exportJWK, generateKeyPair } from 'jose';
import {
  ISSUER,
  REDIRECT_URI,
  assertRedirected,
  assertRefused,
  testClient,
  testDeps,
} from './authorize-test-support';
import { parseAuthorizeRequest, parsePushedRequest } from './parse-authorize-request';
import type { RawAuthorizeParams } from './read-params';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
const NOW_S = 1_780_000_000;
let clockMs = NOW_S * 1000;
const now = () => clockMs;
const JWKS_URI = 'https://rp.example/jwks.json';

let keys: Record<'RS256' | 'PS256' | 'ES256' | 'other', KeyPair>;
let encKey: KeyPair;
let publicJwks: JWK[];

const claims = {
  iss: 'client-1',
  aud: ISSUER,
  client_id: 'client-1',
  redirect_uri: REDIRECT_URI,
  response_type: 'code',
  scope: 'openid email',
  state: 'st-1',
  nonce: 'n-obj',
  exp: NOW_S + 300,
  nbf: NOW_S - 10,
};
const query = { client_id: 'client-1', redirect_uri: REDIRECT_URI, state: 'st-1' };

/** A request object signed with `alg` (kid = alg); `key` overrides the signing key, undefined members are left out. */
function sign(
  overrides: Record<string, unknown> = {},
  opts: { alg?: 'RS256' | 'PS256' | 'ES256'; key?: KeyPair; kid?: string } = {},
): Promise<string> {
  const alg = opts.alg ?? 'ES256';
  const payload = Object.fromEntries(
    Object.entries({ ...claims, ...overrides }).filter(([, v]) => v !== undefined),
  );
  return new SignJWT(payload)
    .setProtectedHeader({ alg, kid: opts.kid ?? alg, typ: 'oauth-authz-req+jwt' })
    .sign((opts.key ?? keys[alg]).privateKey);
}

const withKeys = (overrides: Partial<directory.Client> = {}) =>
  testClient({ jwks: JSON.stringify({ keys: publicJwks }), ...overrides });

function depsFor(client: directory.Client, fetch?: (url: string) => Promise<Response>) {
  return testDeps({
    clients: [client, testClient({ clientId: 'client-2' })],
    key: encKey.privateKey,
    now,
    ...(fetch ? { fetch } : {}),
  });
}

const parseWith = (client: directory.Client, params: RawAuthorizeParams) =>
  parseAuthorizeRequest(params, depsFor(client));
const refused = (client: directory.Client, params: RawAuthorizeParams, description: string) =>
  assertRedirected(parseWith(client, params), 'invalid_request_object', description);

describe('signed request objects (JAR, RFC 9101)', () => {
  beforeAll(async () => {
    const [rs, ps, es, other, enc] = await Promise.all([
      generateKeyPair('RS256'),
      generateKeyPair('PS256'),
      generateKeyPair('ES256'),
      generateKeyPair('ES256'),
      generateKeyPair('RSA-OAEP-256'),
    ]);
    keys = { RS256: rs, PS256: ps, ES256: es, other };
    encKey = enc;
    publicJwks = await Promise.all(
      (['RS256', 'PS256', 'ES256'] as const).map(async (alg) => ({
        ...(await exportJWK(keys[alg].publicKey)),
        kid: alg,
        alg,
      })),
    );
  });

  for (const alg of ['RS256', 'PS256', 'ES256'] as const) {
    it(`takes a request object signed with ${alg} by the client's registered key`, async () => {
      const { request } = await parseWith(withKeys(), { ...query, request: await sign({}, { alg }) });
      assert.equal(request.nonce, 'n-obj');
      assert.deepEqual(request.scope, ['openid', 'email']);
    });
  }

  it('uses only the signed object parameters: a query parameter it lacks is not used (RFC 9101 §5)', async () => {
    const request = await sign({ nonce: undefined });
    const parsed = await parseWith(withKeys(), {
      ...query,
      nonce: 'from-query',
      login_hint: 'ada@example.com',
      scope: 'openid phone',
      request,
    });
    assert.equal(parsed.request.nonce, undefined);
    assert.equal(parsed.request.loginHint, undefined);
    assert.deepEqual(parsed.request.scope, ['openid', 'email']);
  });

  it('still refuses a repeated client_id in the query (the only query parameter a signed object keeps)', async () => {
    await assertRefused(
      parseWith(withKeys(), { ...query, client_id: ['client-1', 'client-1'], request: await sign() }),
      { kind: 'page', code: 'invalid_request', description: 'client_id must be a single value' },
    );
  });

  it('refuses a request object signed with another key under the same kid', async () => {
    const request = await sign({}, { key: keys.other });
    await refused(withKeys(), { ...query, request }, 'request object signature is not valid');
  });

  it('refuses an unknown kid when the keys are registered by value', async () => {
    const request = await sign({}, { kid: 'rotated-away' });
    await refused(
      withKeys(),
      { ...query, request },
      "no key of the client matches the request object's kid and alg",
    );
  });

  it('refetches the jwks_uri once on an unknown kid and then takes the object', async () => {
    const fetched: string[] = [];
    let served: JWK[] = publicJwks.filter((k) => k.kid !== 'new');
    const fetch = async (url: string) => {
      fetched.push(url);
      return new Response(JSON.stringify({ keys: served }), { status: 200 });
    };
    const deps = depsFor(testClient({ jwksUri: JWKS_URI }), fetch);
    await parseAuthorizeRequest({ ...query, request: await sign() }, deps);
    served = [...served, { ...(await exportJWK(keys.other.publicKey)), kid: 'new', alg: 'ES256' }];
    clockMs += 61_000; // ClientJwks refetches a jwks_uri at most once a minute
    const { request } = await parseAuthorizeRequest(
      { ...query, request: await sign({ nonce: 'n-new' }, { key: keys.other, kid: 'new' }) },
      deps,
    );
    assert.equal(request.nonce, 'n-new');
    assert.deepEqual(fetched, [JWKS_URI, JWKS_URI]);
    clockMs = NOW_S * 1000;
  });

  it("refuses the object when the client's jwks_uri cannot be fetched (no key, no trust)", async () => {
    const down = async () => new Response('oops', { status: 503 });
    await assertRedirected(
      parseAuthorizeRequest(
        { ...query, request: await sign() },
        depsFor(testClient({ jwksUri: JWKS_URI }), down),
      ),
      'invalid_request_object',
      "the client's jwks_uri could not be fetched",
    );
  });

  it('refuses alg none, an unsigned JWE and another alg when the app requires ES256', async () => {
    const strict = withKeys({ requestObjectSigningAlg: 'ES256' });
    const unsigned = { ...claims, exp: undefined };
    const mustSign = "this client's request objects must be signed with ES256";
    await refused(strict, { ...query, request: new UnsecuredJWT(unsigned).encode() }, mustSign);
    const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(unsigned)))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM' })
      .encrypt(encKey.publicKey);
    await refused(strict, { ...query, request: jwe }, mustSign);
    await refused(
      strict,
      { ...query, request: await sign({}, { alg: 'RS256' }) },
      "request object must be signed with ES256 (this client's keys)",
    );
    const { request } = await parseWith(strict, { ...query, request: await sign() });
    assert.equal(request.nonce, 'n-obj');
  });

  it('refuses HS256 and other algs, whatever the client', async () => {
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'));
    await refused(
      withKeys(),
      { ...query, request: hs },
      'request object must be signed with RS256, PS256, ES256 or unsecured',
    );
  });

  it('refuses an expired object, one without exp, and one valid for more than 60 minutes ahead', async () => {
    await refused(
      withKeys(),
      { ...query, request: await sign({ exp: NOW_S - 31 }) },
      'request object has expired (exp)',
    );
    await refused(
      withKeys(),
      { ...query, request: await sign({ exp: undefined }) },
      'request object must contain exp',
    );
    await refused(
      withKeys(),
      { ...query, request: await sign({ nbf: undefined, exp: NOW_S + 3700 }) },
      'request object exp must be at most 3600 seconds ahead',
    );
  });

  it('refuses nbf in the future, nbf over 60 minutes old, and exp more than 60 minutes after nbf', async () => {
    await refused(
      withKeys(),
      { ...query, request: await sign({ nbf: NOW_S + 60 }) },
      'request object is not valid yet (nbf)',
    );
    await refused(
      withKeys(),
      { ...query, request: await sign({ nbf: NOW_S - 3700 }) },
      'request object nbf must be at most 3600 seconds old',
    );
    await refused(
      withKeys(),
      { ...query, request: await sign({ nbf: NOW_S - 3000, exp: NOW_S + 1200 }) },
      'request object must be valid for at most 3600 seconds',
    );
    const skewed = await sign({ nbf: NOW_S + 20 });
    assert.equal((await parseWith(withKeys(), { ...query, request: skewed })).request.nonce, 'n-obj');
  });

  it('refuses a wrong aud, an iss that is not the client, and a client_id missing or not the client', async () => {
    await refused(
      withKeys(),
      { ...query, request: await sign({ aud: 'https://other-op.example' }) },
      'request object aud must be the issuer',
    );
    await refused(
      withKeys(),
      { ...query, request: await sign({ iss: 'client-2' }) },
      "request object iss must be the client's client_id",
    );
    await refused(
      withKeys(),
      { ...query, request: await sign({ client_id: undefined }) },
      'request object must contain client_id',
    );
    await refused(
      withKeys(),
      { ...query, request: await sign({ client_id: 'client-2' }) },
      "request object client_id must be the client's client_id",
    );
  });

  it("takes a signed-then-encrypted object and checks the nested signature with the client's keys", async () => {
    const encrypt = async (jws: string) =>
      new CompactEncrypt(new TextEncoder().encode(jws))
        .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', cty: 'JWT' })
        .encrypt(encKey.publicKey);
    const { request } = await parseWith(withKeys(), { ...query, request: await encrypt(await sign()) });
    assert.equal(request.nonce, 'n-obj');
    await refused(
      withKeys(),
      { ...query, request: await encrypt(await sign({}, { key: keys.other })) },
      'request object signature is not valid',
    );
  });

  it('takes a replay within exp again: JAR asks for no jti, and exp bounds the window to 60 minutes', async () => {
    const request = await sign();
    for (let i = 0; i < 2; i++)
      assert.equal((await parseWith(withKeys(), { ...query, request })).request.nonce, 'n-obj');
  });

  it('answers with the error page when the query alone names no trusted redirect target', async () => {
    await assertRefused(parseWith(withKeys(), { client_id: 'client-1', request: await sign({ aud: 'x' }) }), {
      kind: 'page',
      code: 'invalid_request_object',
      description: 'request object aud must be the issuer',
    });
    await assertRefused(parseWith(withKeys(), { client_id: 'nobody', request: await sign() }), {
      kind: 'page',
      code: 'invalid_request_object',
      description: 'the request object names no registered client whose keys could verify it',
    });
  });

  it('/par checks the signed object the same way and keeps only its parameters', async () => {
    const pushed = await parsePushedRequest(
      { ...query, nonce: 'from-query', request: await sign() },
      depsFor(withKeys({ requestObjectSigningAlg: 'ES256' })),
    );
    assert.equal(pushed.values.nonce, 'n-obj');
    assert.equal(pushed.values.request, undefined);
    await assertRefused(
      parsePushedRequest(
        { ...query, request: new UnsecuredJWT(claims).encode() },
        depsFor(withKeys({ requestObjectSigningAlg: 'ES256' })),
      ),
      {
        kind: 'redirect',
        code: 'invalid_request_object',
        description: "this client's request objects must be signed with ES256",
        redirectUri: REDIRECT_URI,
        state: 'st-1',
      },
    );
  });
});
