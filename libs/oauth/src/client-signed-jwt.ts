import {
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyOptions,
  createLocalJWKSet,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import type { ClientJwks, KeyedClient } from './client-jwks';

/**
 * jose's verifier of each JWK Set object ClientJwks hands out (it keeps one object per set): jose imports a
 * set's key once per verifier, so a client's second JWT needs no key import (which cost more than the
 * signature check itself; bench/token-dpop.bench.ts). A set no longer held goes with its verifier.
 */
const verifiers = new WeakMap<JSONWebKeySet, ReturnType<typeof createLocalJWKSet>>();

function verifierOf(set: JSONWebKeySet): ReturnType<typeof createLocalJWKSet> {
  let verifier = verifiers.get(set);
  if (!verifier) {
    verifier = createLocalJWKSet(set);
    verifiers.set(set, verifier);
  }
  return verifier;
}

/**
 * Verifies a JWT signed by one of the client's keys (a client_assertion, a signed request object). An
 * unknown kid with a jwks_uri refetches the set once (ClientJwks rate-limits it); jose's errors pass through
 * for the caller to name in its own error code.
 */
export async function verifyClientSignedJwt(
  jwks: ClientJwks,
  client: KeyedClient,
  jwt: string,
  options: JWTVerifyOptions,
): Promise<JWTPayload> {
  const attempt = async (refresh: boolean): Promise<JWTPayload | undefined> => {
    const set = await jwks.keysOf(client, { refresh });
    if (!set) return undefined;
    return (await jwtVerify(jwt, verifierOf(set), options)).payload;
  };
  try {
    return (await attempt(false)) as JWTPayload;
  } catch (err) {
    if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
    const payload = await attempt(true);
    if (!payload) throw err;
    return payload;
  }
}
