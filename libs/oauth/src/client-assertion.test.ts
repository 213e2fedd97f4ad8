import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { OAuthError } from '@sesame/platform';
import {
  CompactSign,
  type CryptoKey,
  type JWK,
  SignJWT,
  UnsecuredJWT,
  exportJWK,
  generateKeyPair,
  errors as joseErrors,
} from 'jose';
import { type ReplayStore, clientAssertionVerifier } from './client-assertion';
import { ClientJwks, DEFAULT_CLIENT_JWKS_LIMITS, type KeyedClient } from './client-jwks';
import { verifyClientSignedJwt } from './client-signed-jwt';

const ISSUER = 'https://auth.example';
const TOKEN_URL = 'https://auth.example/token';
const CLIENT = 'client-1';
const T0 = 1_800_000_000_000;

/** The KV's set-if-absent with TTLs on a test clock. */
function replayStore(clock: { now(): number }): ReplayStore & { size(): number } {
  const entries = new Map<string, number>();
  return {
    async set(key, _value, { ttlMs, onlyIfAbsent }) {
      const until = entries.get(key);
      if (onlyIfAbsent && until !== undefined && until > clock.now()) return false;
      entries.set(key, clock.now() + ttlMs);
      return true;
    },
    size: () => entries.size,
  };
}

let es: { privateKey: CryptoKey; jwk: JWK };
let rs: { privateKey: CryptoKey; jwk: JWK };
let other: { privateKey: CryptoKey; jwk: JWK };

async function keyPair(alg: string, kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg } };
}

beforeAll(async () => {
  es = await keyPair('ES256', 'es-1');
  rs = await keyPair('PS256', 'rs-1');
  other = await keyPair('ES256', 'es-2');
});

function setup(opts: { client?: Partial<KeyedClient>; fetch?: (url: string) => Promise<Response> } = {}) {
  const clock = {
    t: T0,
    now() {
      return this.t;
    },
  };
  const replays = replayStore(clock);
  const jwks = new ClientJwks(clock, DEFAULT_CLIENT_JWKS_LIMITS, async (url) => {
    if (!opts.fetch) throw new Error('no fetch in this test');
    return opts.fetch(url);
  });
  const verifier = clientAssertionVerifier({ clock, jwks, replays, audiences: [ISSUER, TOKEN_URL] });
  const client: KeyedClient = {
    clientId: CLIENT,
    jwks: JSON.stringify({ keys: [es.jwk, rs.jwk] }),
    jwksUri: '',
    ...opts.client,
  };
  return { clock, verifier, client, replays };
}

interface Claims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  jti?: string;
}

async function sign(
  key: { privateKey: CryptoKey; jwk: JWK },
  claims: Claims = {},
  header: { alg?: string; kid?: string } = {},
) {
  const nowS = Math.floor(T0 / 1000);
  const payload = {
    iss: CLIENT,
    sub: CLIENT,
    aud: ISSUER,
    exp: nowS + 60,
    iat: nowS,
    jti: `jti-${Math.random()}`,
    ...claims,
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: header.alg ?? (key.jwk.alg as string), kid: header.kid ?? key.jwk.kid })
    .sign(key.privateKey);
}

async function refused(promise: Promise<unknown>, description: string | RegExp) {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof OAuthError, String(err));
    assert.equal(err.code, 'invalid_client');
    assert.equal(err.status, 401);
    if (typeof description === 'string') assert.equal(err.description, description);
    else assert.match(err.description, description);
    return true;
  });
}

describe('private_key_jwt client assertions (RFC 7523)', () => {
  it('accepts an ES256 assertion for the issuer and a PS256 one for the token endpoint', async () => {
    const { verifier, client } = setup();
    await verifier.verify(client, await sign(es));
    await verifier.verify(client, await sign(rs, { aud: TOKEN_URL }));
    await verifier.verify(client, await sign(es, { aud: ['https://elsewhere.example', ISSUER] }));
  });

  it('refuses a replayed jti while the first assertion is alive', async () => {
    const { verifier, client } = setup();
    const assertion = await sign(es, { jti: 'once' });
    await verifier.verify(client, assertion);
    await refused(verifier.verify(client, assertion), 'client_assertion jti has already been used');
    await refused(verifier.verify(client, await sign(es, { jti: 'once' })), /already been used/);
  });

  it('refuses an expired assertion, beyond the 30 s of clock skew', async () => {
    const { verifier, client, clock } = setup();
    const assertion = await sign(es, { exp: Math.floor(T0 / 1000) + 10 });
    clock.t = T0 + 35_000;
    await verifier.verify(client, assertion);
    clock.t = T0 + 41_000;
    await refused(
      verifier.verify(client, await sign(es, { exp: Math.floor(T0 / 1000) + 10 })),
      'client_assertion has expired',
    );
  });

  it('refuses an exp more than five minutes ahead, and an assertion without exp or jti', async () => {
    const { verifier, client } = setup();
    const nowS = Math.floor(T0 / 1000);
    await refused(verifier.verify(client, await sign(es, { exp: nowS + 3600 })), /at most 300 seconds ahead/);
    const noJti = await new SignJWT({ iss: CLIENT, sub: CLIENT, aud: ISSUER, exp: nowS + 60 })
      .setProtectedHeader({ alg: 'ES256', kid: 'es-1' })
      .sign(es.privateKey);
    await refused(verifier.verify(client, noJti), 'client_assertion must carry a valid jti');
    const noExp = await new SignJWT({ iss: CLIENT, sub: CLIENT, aud: ISSUER, jti: 'x' })
      .setProtectedHeader({ alg: 'ES256', kid: 'es-1' })
      .sign(es.privateKey);
    await refused(verifier.verify(client, noExp), 'client_assertion must carry a valid exp');
  });

  it('refuses an nbf in the future', async () => {
    const { verifier, client } = setup();
    await refused(
      verifier.verify(client, await sign(es, { nbf: Math.floor(T0 / 1000) + 120 })),
      'client_assertion is not valid yet (nbf)',
    );
  });

  it('refuses a wrong aud', async () => {
    const { verifier, client } = setup();
    await refused(
      verifier.verify(client, await sign(es, { aud: 'https://other-op.example' })),
      'client_assertion aud must be the issuer or the token endpoint URL',
    );
  });

  it("accepts the called endpoint's URL as aud only where that endpoint says so", async () => {
    const { verifier, client } = setup();
    const aud = 'https://auth.example/par';
    await refused(verifier.verify(client, await sign(es, { aud })), /aud must be/);
    await verifier.verify(client, await sign(es, { aud }), aud);
  });

  it('refuses an iss or sub other than the client_id', async () => {
    const { verifier, client } = setup();
    await refused(
      verifier.verify(client, await sign(es, { iss: 'client-2' })),
      'client_assertion iss must be the client_id',
    );
    await refused(
      verifier.verify(client, await sign(es, { sub: 'client-2' })),
      'client_assertion sub must be the client_id',
    );
  });

  it('refuses alg none and HS256, whatever the claims', async () => {
    const { verifier, client } = setup();
    const nowS = Math.floor(T0 / 1000);
    const claims = { iss: CLIENT, sub: CLIENT, aud: ISSUER, exp: nowS + 60, jti: 'j' };
    const unsecured = new UnsecuredJWT(claims).encode();
    await refused(
      verifier.verify(client, unsecured),
      'client_assertion must be signed with RS256, PS256, ES256',
    );
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a-shared-secret-of-enough-length-32b'));
    await refused(verifier.verify(client, hs), 'client_assertion must be signed with RS256, PS256, ES256');
  });

  it('refuses a header with crit, and a payload that is no JSON object, even when signed by the key', async () => {
    const { verifier, client } = setup();
    const nowS = Math.floor(T0 / 1000);
    const claims = { iss: CLIENT, sub: CLIENT, aud: ISSUER, exp: nowS + 60, jti: 'j-crit' };
    const withCrit = await new SignJWT({ ...claims, jti: 'j-crit' })
      .setProtectedHeader({ alg: 'ES256', kid: 'es-1', crit: ['urn:example:ext'], 'urn:example:ext': 1 })
      .sign(es.privateKey, { crit: { 'urn:example:ext': true } });
    await refused(verifier.verify(client, withCrit), 'client_assertion is not a valid JWT');
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'es-1' })).toString('base64url');
    const body = Buffer.from('"just a string"').toString('base64url');
    const notAnObject = await new CompactSign(Buffer.from('"just a string"'))
      .setProtectedHeader({ alg: 'ES256', kid: 'es-1' })
      .sign(es.privateKey);
    assert.equal(notAnObject.split('.').slice(0, 2).join('.'), `${header}.${body}`);
    await refused(verifier.verify(client, notAnObject), 'client_assertion is not a valid JWT');
  });

  it('refuses a signature by a key the client did not register, under a registered kid', async () => {
    const { verifier, client } = setup();
    await refused(
      verifier.verify(client, await sign(other, {}, { kid: 'es-1' })),
      'client_assertion signature is not valid',
    );
  });

  it('refuses an unknown kid among keys registered by value', async () => {
    const { verifier, client } = setup();
    await refused(
      verifier.verify(client, await sign(other)),
      "no key of the client matches the client_assertion's kid",
    );
  });

  it('keeps a set registered by value (parsed once), and follows a changed registration at once', async () => {
    const { verifier, client } = setup();
    const jwks = new ClientJwks({ now: () => T0 });
    const first = await jwks.keysOf(client);
    assert.equal(await jwks.keysOf({ ...client }), first);
    for (let i = 0; i < 3; i++) await verifier.verify(client, await sign(es));
    // The app's keys replaced (PATCH jwks): the old key is refused, the new one verifies.
    const rotated = { ...client, jwks: JSON.stringify({ keys: [{ ...other.jwk, kid: 'es-1' }] }) };
    assert.notEqual(await jwks.keysOf(rotated), first);
    await refused(verifier.verify(rotated, await sign(es)), 'client_assertion signature is not valid');
    await verifier.verify(rotated, await sign(other, {}, { kid: 'es-1' }));
    await refused(
      verifier.verify(client, await sign(other, {}, { kid: 'es-1' })),
      'client_assertion signature is not valid',
    );
  });

  it('under a header already accepted (its decoding and key selection skipped), still checks everything else', async () => {
    const { verifier, client } = setup();
    const nowS = Math.floor(T0 / 1000);
    const first = await sign(es);
    await verifier.verify(client, first);
    const header = first.split('.')[0]!;
    const under = async (claims: Claims, key = es) => {
      const jwt = await sign(key, claims, { kid: 'es-1', alg: 'ES256' });
      assert.equal(jwt.split('.')[0], header);
      return jwt;
    };
    await refused(verifier.verify(client, await under({}, other)), 'client_assertion signature is not valid');
    // A signature over other claims, spliced onto this payload.
    const [, body] = (await under({ jti: 'spliced' })).split('.');
    const [, , signature] = (await under({ jti: 'spliced-2' })).split('.');
    await refused(
      verifier.verify(client, `${header}.${body}.${signature}`),
      'client_assertion signature is not valid',
    );
    await refused(
      verifier.verify(client, await under({ iss: 'client-2' })),
      'client_assertion iss must be the client_id',
    );
    await refused(
      verifier.verify(client, await under({ aud: 'https://other-op.example' })),
      'client_assertion aud must be the issuer or the token endpoint URL',
    );
    await refused(verifier.verify(client, await under({ exp: nowS - 60 })), 'client_assertion has expired');
    await refused(verifier.verify(client, first), 'client_assertion jti has already been used');
    const fresh = await under({});
    await refused(verifier.verify(client, `${fresh}.x`), 'client_assertion is not a signed JWT');
    await refused(
      verifier.verify(client, fresh.split('.').slice(0, 2).join('.')),
      'client_assertion is not a signed JWT',
    );
    await verifier.verify(client, fresh);
  });

  it('checks the claims of the assertion it verifies, not a decoded payload of another', async () => {
    const { verifier, client } = setup();
    const nowS = Math.floor(T0 / 1000);
    const expired = await sign(es, { exp: nowS - 60 });
    const valid = await sign(es);
    const validSegment = valid.split('.')[1]!;
    const validClaims = JSON.parse(Buffer.from(validSegment, 'base64url').toString());
    // Claims handed over with another assertion's segment are not used: the expired one's own are checked.
    await refused(
      verifier.verify(client, expired, undefined, {
        decoded: { segment: validSegment, claims: validClaims },
      }),
      'client_assertion has expired',
    );
    // Handed over with its own segment, they are the ones checked (decoded once, by readClientCredentials).
    await verifier.verify(client, valid, undefined, {
      decoded: { segment: validSegment, claims: validClaims },
    });
    await refused(verifier.verify(client, valid), 'client_assertion jti has already been used');
  });

  it("checks a remembered header's alg against each caller's own algorithms", async () => {
    const { client } = setup();
    const jwks = new ClientJwks({ now: () => T0 });
    const options = {
      issuer: CLIENT,
      audience: ISSUER,
      requiredClaims: [],
      clockTolerance: 30,
      currentDate: new Date(T0),
    };
    await verifyClientSignedJwt(jwks, client, await sign(es), { ...options, algorithms: ['ES256'] });
    await assert.rejects(
      verifyClientSignedJwt(jwks, client, await sign(es), { ...options, algorithms: ['PS256'] }),
      joseErrors.JOSEAlgNotAllowed,
    );
  });
});

describe('client keys by jwks_uri', () => {
  const uri = 'https://rp.example/jwks.json';
  const served = (keys: JWK[]) => new Response(JSON.stringify({ keys }), { status: 200 });

  it('fetches once and answers later assertions from the cache', async () => {
    let fetches = 0;
    const { verifier, client } = setup({
      client: { jwks: '', jwksUri: uri },
      fetch: async () => {
        fetches += 1;
        return served([es.jwk]);
      },
    });
    await verifier.verify(client, await sign(es));
    await verifier.verify(client, await sign(es));
    assert.equal(fetches, 1);
  });

  it('a key replaced under the same kid is used once the set is fetched again', async () => {
    let keys = [es.jwk];
    const { verifier, client, clock } = setup({
      client: { jwks: '', jwksUri: uri },
      fetch: async () => served(keys),
    });
    await verifier.verify(client, await sign(es));
    keys = [{ ...other.jwk, kid: 'es-1' }];
    const later = () => ({ exp: Math.floor(clock.t / 1000) + 60 });
    // Still the cached set: the old key verifies, the new one does not.
    await refused(
      verifier.verify(client, await sign(other, later(), { kid: 'es-1' })),
      'client_assertion signature is not valid',
    );
    clock.t += DEFAULT_CLIENT_JWKS_LIMITS.cacheMs + 1000;
    await verifier.verify(client, await sign(other, later(), { kid: 'es-1' }));
    await refused(
      verifier.verify(client, await sign(es, later())),
      'client_assertion signature is not valid',
    );
  });

  it('refetches once on an unknown kid (a rotated key), then at most once a minute', async () => {
    let fetches = 0;
    let keys = [es.jwk];
    const { verifier, client, clock } = setup({
      client: { jwks: '', jwksUri: uri },
      fetch: async () => {
        fetches += 1;
        return served(keys);
      },
    });
    await verifier.verify(client, await sign(es));
    keys = [es.jwk, other.jwk];
    clock.t += 61_000;
    await verifier.verify(client, await sign(other, { exp: Math.floor(clock.t / 1000) + 60 }));
    assert.equal(fetches, 2);
    // A made-up kid right after: refused without another fetch.
    const stranger = await keyPair('ES256', 'nobody');
    await refused(
      verifier.verify(client, await sign(stranger, { exp: Math.floor(clock.t / 1000) + 60 })),
      "no key of the client matches the client_assertion's kid",
    );
    assert.equal(fetches, 2);
  });

  it('an unknown kid refetches exactly once, then is invalid_client', async () => {
    let fetches = 0;
    const { verifier, client, clock } = setup({
      client: { jwks: '', jwksUri: uri },
      fetch: async () => {
        fetches += 1;
        return served([es.jwk]);
      },
    });
    await verifier.verify(client, await sign(es));
    clock.t += 61_000;
    await refused(
      verifier.verify(client, await sign(other, { exp: Math.floor(clock.t / 1000) + 60 })),
      "no key of the client matches the client_assertion's kid",
    );
    assert.equal(fetches, 2);
  });

  it('refuses a JWK Set larger than the cap, or an error answer, as unfetchable', async () => {
    const big = { jwks: '', jwksUri: uri };
    const huge = setup({
      client: big,
      fetch: async () => new Response(`{"keys":[${'{"kty":"EC"},'.repeat(10_000)}{"kty":"EC"}]}`),
    });
    await refused(
      huge.verifier.verify(huge.client, await sign(es)),
      "the client's jwks_uri could not be fetched",
    );
    const failing = setup({ client: big, fetch: async () => new Response('nope', { status: 500 }) });
    await refused(
      failing.verifier.verify(failing.client, await sign(es)),
      "the client's jwks_uri could not be fetched",
    );
  });

  it('never fetches a jwks_uri on a private address', async () => {
    let fetches = 0;
    const { verifier, client } = setup({
      client: { jwks: '', jwksUri: 'https://169.254.169.254/keys' },
      fetch: async () => {
        fetches += 1;
        return served([es.jwk]);
      },
    });
    await refused(verifier.verify(client, await sign(es)), "the client's jwks_uri could not be fetched");
    assert.equal(fetches, 0);
  });
});
