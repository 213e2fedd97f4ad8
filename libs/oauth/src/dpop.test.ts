import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { beforeAll, describe, it } from '@jest/globals';
import {
  type CryptoKey,
  type JWK,
  SignJWT,
  UnsecuredJWT,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
} from 'jose';
import type { ReplayStore } from './client-assertion';
import { dpopVerifier, issuerEndpoint } from './dpop';
import { DpopProblem, resourceDpopError, tokenEndpointDpopError } from './dpop-errors';
import { DPOP_NONCE_SLOT_MS, dpopNonces } from './dpop-nonce';

const TOKEN_URL = 'https://auth.example/token';
const T0 = 1_800_000_000_000;

function replayStore(clock: { now(): number }): ReplayStore {
  const entries = new Map<string, number>();
  return {
    async set(key, _value, { ttlMs, onlyIfAbsent }) {
      const until = entries.get(key);
      if (onlyIfAbsent && until !== undefined && until > clock.now()) return false;
      entries.set(key, clock.now() + ttlMs);
      return true;
    },
  };
}

type Pair = { privateKey: CryptoKey; jwk: JWK; privateJwk: JWK };
const keys: Record<string, Pair> = {};

async function keyPair(alg: string): Promise<Pair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

beforeAll(async () => {
  for (const alg of ['ES256', 'PS256', 'RS256', 'EdDSA', 'ES384']) keys[alg] = await keyPair(alg);
});

interface ProofOptions {
  alg?: string;
  typ?: string;
  jwk?: JWK | null;
  claims?: Record<string, unknown>;
  key?: CryptoKey;
}

async function proof(t: number, opts: ProofOptions = {}): Promise<string> {
  const alg = opts.alg ?? 'ES256';
  const pair = keys[alg] ?? keys.ES256!;
  const header: Record<string, unknown> = { alg, typ: opts.typ ?? 'dpop+jwt' };
  if (opts.jwk !== null) header.jwk = opts.jwk ?? pair.jwk;
  const claims = {
    jti: randomUUID(),
    htm: 'POST',
    htu: TOKEN_URL,
    iat: Math.floor(t / 1000),
    ...opts.claims,
  };
  for (const name in claims)
    if (claims[name as keyof typeof claims] === undefined) delete claims[name as keyof typeof claims];
  return new SignJWT(claims).setProtectedHeader(header as never).sign(opts.key ?? pair.privateKey);
}

function setup(withNonces = false) {
  const clock = {
    t: T0,
    now() {
      return this.t;
    },
  };
  const nonces = withNonces ? dpopNonces('a-test-secret-of-enough-length-000000', clock) : undefined;
  const verifier = dpopVerifier({ clock, replays: replayStore(clock), ...(nonces ? { nonces } : {}) });
  return { clock, verifier, nonces };
}

async function refused(
  promise: Promise<unknown>,
  code: 'invalid_dpop_proof' | 'use_dpop_nonce',
  description: string | RegExp,
) {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof DpopProblem, String(err));
    assert.equal(err.code, code);
    if (typeof description === 'string') assert.equal(err.description, description);
    else assert.match(err.description, description);
    return true;
  });
}

const at = (
  header: string | string[] | undefined,
  more: { accessToken?: string; method?: string; url?: string } = {},
) => ({
  header,
  method: more.method ?? 'POST',
  url: more.url ?? TOKEN_URL,
  ...(more.accessToken !== undefined ? { accessToken: more.accessToken } : {}),
});

describe('DPoP proofs: hostile input is refused with invalid_dpop_proof', () => {
  it('refuses an unsigned proof (alg none) whatever its claims', async () => {
    const { verifier } = setup();
    const unsigned = new UnsecuredJWT({ jti: 'x', htm: 'POST', htu: TOKEN_URL, iat: T0 / 1000 }).encode();
    const withTyp = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk: keys.ES256!.jwk })).toString('base64url')}.${unsigned.split('.')[1]}.`;
    await refused(
      verifier.verify(at(withTyp)),
      'invalid_dpop_proof',
      'DPoP proof must be signed with ES256, PS256, RS256, EdDSA',
    );
    await refused(verifier.verify(at(unsigned)), 'invalid_dpop_proof', 'DPoP proof typ must be dpop+jwt');
  });

  it('refuses an HMAC proof with a symmetric jwk (anyone could sign it)', async () => {
    const { verifier } = setup();
    const secret = new TextEncoder().encode('0123456789abcdef0123456789abcdef');
    const hs = await new SignJWT({ jti: 'x', htm: 'POST', htu: TOKEN_URL, iat: T0 / 1000 })
      // jose's types keep private members out of a header jwk; a hostile client does not care.
      .setProtectedHeader({
        alg: 'HS256',
        typ: 'dpop+jwt',
        jwk: { kty: 'oct', k: Buffer.from(secret).toString('base64url') },
      } as never)
      .sign(secret);
    await refused(verifier.verify(at(hs)), 'invalid_dpop_proof', /must be signed with/);
  });

  it('refuses a jwk carrying the private key', async () => {
    const { verifier } = setup();
    await refused(
      verifier.verify(at(await proof(T0, { jwk: keys.ES256!.privateJwk }))),
      'invalid_dpop_proof',
      'DPoP proof jwk must be a public key',
    );
  });

  it('refuses a proof signed by another key than the jwk it carries', async () => {
    const { verifier } = setup();
    const forged = await proof(T0, { jwk: keys.ES256!.jwk, key: (await keyPair('ES256')).privateKey });
    await refused(verifier.verify(at(forged)), 'invalid_dpop_proof', 'DPoP proof signature is not valid');
  });

  it('checks the signature and claims of every proof, also under a header it accepted before', async () => {
    const { verifier } = setup();
    const good = await proof(T0);
    await verifier.verify(at(good));
    const forged = await proof(T0, { jwk: keys.ES256!.jwk, key: (await keyPair('ES256')).privateKey });
    // The very header that was accepted (and whose key is remembered): only the signature tells them apart.
    assert.equal(forged.split('.')[0], good.split('.')[0]);
    await refused(verifier.verify(at(forged)), 'invalid_dpop_proof', 'DPoP proof signature is not valid');
    const [header, , signature] = (await proof(T0)).split('.');
    const otherClaims = Buffer.from(
      JSON.stringify({ jti: randomUUID(), htm: 'POST', htu: TOKEN_URL, iat: T0 / 1000 }),
    );
    await refused(
      verifier.verify(at(`${header}.${otherClaims.toString('base64url')}.${signature}`)),
      'invalid_dpop_proof',
      'DPoP proof signature is not valid',
    );
    await refused(
      verifier.verify(at(await proof(T0, { claims: { htm: 'GET' } }))),
      'invalid_dpop_proof',
      'DPoP proof htm does not match the request method',
    );
  });

  it('refuses a proof without jwk, with another typ, an unsupported alg, or not a JWT', async () => {
    const { verifier } = setup();
    await refused(
      verifier.verify(at(await proof(T0, { jwk: null }))),
      'invalid_dpop_proof',
      'DPoP proof must carry its public key (jwk)',
    );
    await refused(
      verifier.verify(at(await proof(T0, { typ: 'JWT' }))),
      'invalid_dpop_proof',
      'DPoP proof typ must be dpop+jwt',
    );
    await refused(
      verifier.verify(at(await proof(T0, { alg: 'ES384' }))),
      'invalid_dpop_proof',
      /must be signed with ES256, PS256, RS256, EdDSA/,
    );
    await refused(verifier.verify(at('not.a.jwt')), 'invalid_dpop_proof', 'DPoP proof is not a JWT');
  });

  it("refuses a jwk that is not a key of the proof's alg (an RSA key under ES256, RSA under 2048 bits)", async () => {
    const { verifier } = setup();
    await refused(
      verifier.verify(at(await proof(T0, { jwk: keys.PS256!.jwk }))),
      'invalid_dpop_proof',
      'DPoP proof jwk is not a public key of its alg',
    );
    // jose refuses to sign with a small RSA key, so this proof is put together by hand.
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const head = b64({ alg: 'RS256', typ: 'dpop+jwt', jwk: small.publicKey.export({ format: 'jwk' }) });
    const body = b64({ jti: 'small', htm: 'POST', htu: TOKEN_URL, iat: Math.floor(T0 / 1000) });
    const sig = sign('sha256', Buffer.from(`${head}.${body}`), small.privateKey).toString('base64url');
    await refused(
      verifier.verify(at(`${head}.${body}.${sig}`)),
      'invalid_dpop_proof',
      'DPoP proof jwk is not a public key of its alg',
    );
  });

  it('refuses no header, two headers, or two proofs in one header', async () => {
    const { verifier } = setup();
    const one = await proof(T0);
    await refused(verifier.verify(at(undefined)), 'invalid_dpop_proof', 'the DPoP header is missing');
    await refused(
      verifier.verify(at([one, one])),
      'invalid_dpop_proof',
      'exactly one DPoP header must be sent',
    );
    await refused(
      verifier.verify(at(`${one}, ${one}`)),
      'invalid_dpop_proof',
      'exactly one DPoP proof must be sent',
    );
  });

  it('refuses a proof missing jti, htm, htu or iat', async () => {
    const { verifier } = setup();
    for (const claim of ['jti', 'htm', 'htu', 'iat'])
      await refused(
        verifier.verify(at(await proof(T0, { claims: { [claim]: undefined } }))),
        'invalid_dpop_proof',
        `DPoP proof must carry a valid ${claim}`,
      );
  });
});

describe('DPoP proofs: the request they were made for', () => {
  it('accepts ES256, PS256, RS256 and EdDSA proofs and answers the key thumbprint', async () => {
    const { verifier } = setup();
    for (const alg of ['ES256', 'PS256', 'RS256', 'EdDSA']) {
      const thumbprint = await calculateJwkThumbprint(keys[alg]!.jwk, 'sha256');
      // The first proof of a key, then the next ones (its header and key remembered).
      for (let i = 0; i < 3; i++)
        assert.equal((await verifier.verify(at(await proof(T0, { alg })))).jkt, thumbprint);
    }
  });

  it('refuses another method (htm) and another URL (htu); query and fragment of htu are ignored', async () => {
    const { verifier } = setup();
    await refused(
      verifier.verify(at(await proof(T0), { method: 'GET' })),
      'invalid_dpop_proof',
      'DPoP proof htm does not match the request method',
    );
    await refused(
      verifier.verify(at(await proof(T0, { claims: { htu: 'https://auth.example/userinfo' } }))),
      'invalid_dpop_proof',
      'DPoP proof htu does not match the endpoint URL',
    );
    await refused(
      verifier.verify(at(await proof(T0, { claims: { htu: 'https://evil.example/token' } }))),
      'invalid_dpop_proof',
      'DPoP proof htu does not match the endpoint URL',
    );
    await verifier.verify(at(await proof(T0, { claims: { htu: 'https://AUTH.example:443/token?x=1#f' } })));
  });

  it('refuses a replayed proof (same jti and key) while its iat is acceptable', async () => {
    const { verifier, clock } = setup();
    const once = await proof(T0);
    await verifier.verify(at(once));
    await refused(verifier.verify(at(once)), 'invalid_dpop_proof', 'DPoP proof jti has already been used');
    clock.t += 30_000;
    await refused(verifier.verify(at(once)), 'invalid_dpop_proof', 'DPoP proof jti has already been used');
    clock.t += 31_000;
    await refused(verifier.verify(at(once)), 'invalid_dpop_proof', 'DPoP proof is too old (iat)');
  });

  it('takes the same jti from another key (the cache is per key)', async () => {
    const { verifier } = setup();
    await verifier.verify(at(await proof(T0, { claims: { jti: 'same' } })));
    await verifier.verify(at(await proof(T0, { alg: 'PS256', claims: { jti: 'same' } })));
  });

  it('allows 60 s of age and 30 s of clock skew ahead, not more', async () => {
    const { verifier } = setup();
    await verifier.verify(at(await proof(T0 - 60_000)));
    await verifier.verify(at(await proof(T0 + 30_000)));
    await refused(
      verifier.verify(at(await proof(T0 - 61_000))),
      'invalid_dpop_proof',
      'DPoP proof is too old (iat)',
    );
    await refused(
      verifier.verify(at(await proof(T0 + 31_000))),
      'invalid_dpop_proof',
      'DPoP proof iat is in the future',
    );
  });

  it('at a resource, requires ath = base64url(SHA-256(access token))', async () => {
    const { verifier } = setup();
    const token = 'the-access-token';
    const ath = createHash('sha256').update(token).digest('base64url');
    await verifier.verify(at(await proof(T0, { claims: { ath } }), { accessToken: token }));
    await refused(
      verifier.verify(at(await proof(T0), { accessToken: token })),
      'invalid_dpop_proof',
      'DPoP proof must carry ath for the access token',
    );
    await refused(
      verifier.verify(at(await proof(T0, { claims: { ath: 'x'.repeat(43) } }), { accessToken: token })),
      'invalid_dpop_proof',
      'DPoP proof ath does not match the access token',
    );
  });
});

describe('DPoP server nonces', () => {
  it('asks for the nonce (use_dpop_nonce with the current one), then accepts it for two slots', async () => {
    const { verifier, clock, nonces } = setup(true);
    let given = '';
    await assert.rejects(verifier.verify(at(await proof(T0))), (err: unknown) => {
      assert.ok(err instanceof DpopProblem);
      assert.equal(err.code, 'use_dpop_nonce');
      assert.equal(err.nonce, nonces!.current());
      given = err.nonce!;
      return true;
    });
    await verifier.verify(at(await proof(T0, { claims: { nonce: given } })));
    clock.t += DPOP_NONCE_SLOT_MS;
    await verifier.verify(at(await proof(clock.t, { claims: { nonce: given } })));
    clock.t += DPOP_NONCE_SLOT_MS;
    await refused(
      verifier.verify(at(await proof(clock.t, { claims: { nonce: given } }))),
      'use_dpop_nonce',
      'DPoP nonce is stale',
    );
  });
});

describe('DPoP errors per endpoint', () => {
  it('answers 400 at /token with DPoP-Nonce, 401 with a DPoP challenge at a resource', () => {
    const atToken = tokenEndpointDpopError(new DpopProblem('use_dpop_nonce', 'DPoP nonce is stale', 'n-1'));
    assert.equal(atToken.status, 400);
    assert.deepEqual(atToken.body(), { error: 'use_dpop_nonce', error_description: 'DPoP nonce is stale' });
    assert.deepEqual(atToken.headers, { 'DPoP-Nonce': 'n-1' });
    const atResource = resourceDpopError(
      new DpopProblem('invalid_dpop_proof', 'DPoP proof is too old (iat)'),
    );
    assert.equal(atResource.status, 401);
    assert.deepEqual(atResource.headers, {
      'WWW-Authenticate':
        'DPoP realm="sesame", error="invalid_dpop_proof", error_description="DPoP proof is too old (iat)", algs="ES256 PS256 RS256 EdDSA"',
    });
  });
});

describe('issuerEndpoint', () => {
  it("names an endpoint as discovery does, keeping the issuer's path", () => {
    assert.equal(
      issuerEndpoint('https://id.example/tenant-a/', '/token'),
      'https://id.example/tenant-a/token',
    );
    assert.equal(issuerEndpoint('https://id.example', '/userinfo'), 'https://id.example/userinfo');
    assert.equal(issuerEndpoint('https://id.example///', '/par'), 'https://id.example/par');
    assert.equal(issuerEndpoint('', '/token'), '/token');
  });
});
