import type { StoredKey } from './key';

/** One published key with exactly the members of spec 2.3, in its order. */
export interface PublishedJwk {
  kty: 'RSA';
  e: string;
  use: string;
  kid: string;
  x5c: string[];
  alg: string;
  n: string;
}

export function toPublishedJwk(key: StoredKey): PublishedJwk {
  return {
    kty: 'RSA',
    e: key.publicJwk.e,
    use: key.use,
    kid: key.kid,
    x5c: key.x5c,
    alg: key.alg,
    n: key.publicJwk.n,
  };
}

/** The /jwks body, serialized once per key-set change. */
export function serializeJwks(keys: StoredKey[]): Buffer {
  return Buffer.from(JSON.stringify({ keys: keys.map(toPublishedJwk) }), 'utf8');
}
