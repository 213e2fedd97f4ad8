import type { StoredKey } from './key';

/** One published RSA key with exactly the members of spec 2.3, in its order. */
export interface PublishedRsaJwk {
  kty: 'RSA';
  e: string;
  use: string;
  kid: string;
  x5c: string[];
  alg: string;
  n: string;
}

/** One published ES256 key: the members of spec 2.3 with RFC 7518 §6.2's crv, x, y in place of e and n. */
export interface PublishedEcJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  use: string;
  kid: string;
  x5c: string[];
  alg: string;
}

export type PublishedJwk = PublishedRsaJwk | PublishedEcJwk;

export function toPublishedJwk(key: StoredKey): PublishedJwk {
  const jwk = key.publicJwk;
  if (jwk.kty === 'EC')
    return {
      kty: 'EC',
      crv: jwk.crv,
      x: jwk.x,
      y: jwk.y,
      use: key.use,
      kid: key.kid,
      x5c: key.x5c,
      alg: key.alg,
    };
  return {
    kty: 'RSA',
    e: jwk.e,
    use: key.use,
    kid: key.kid,
    x5c: key.x5c,
    alg: key.alg,
    n: jwk.n,
  };
}

/** The /jwks body, serialized once per key-set change. */
export function serializeJwks(keys: StoredKey[]): Buffer {
  return Buffer.from(JSON.stringify({ keys: keys.map(toPublishedJwk) }), 'utf8');
}
