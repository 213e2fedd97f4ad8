import { constants, KeyObject, verify } from 'node:crypto';
import {
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyOptions,
  UnsecuredJWT,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
} from 'jose';
import type { ClientJwks, KeyedClient } from './client-jwks';

/**
 * jose's key selection of each JWK Set object ClientJwks hands out (it keeps one object per set): jose imports
 * a set's key once per selector, so a client's second JWT needs no key import (which cost more than the
 * signature check itself; bench/proof-verifiers.ts). A set no longer held goes with its selector.
 */
const selectors = new WeakMap<JSONWebKeySet, ReturnType<typeof createLocalJWKSet>>();
/** The node:crypto form of each key jose selected (CryptoKey objects are kept by the selector above). */
const keyObjects = new WeakMap<object, KeyObject>();

function selectorOf(set: JSONWebKeySet): ReturnType<typeof createLocalJWKSet> {
  let selector = selectors.get(set);
  if (!selector) {
    selector = createLocalJWKSet(set);
    selectors.set(set, selector);
  }
  return selector;
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
    return verifySignedJwt(jwt, selectorOf(set), options);
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

/**
 * jose's jwtVerify with the signature checked by node:crypto: jose verifies through WebCrypto, which cost
 * about half a signature verification more per JWT. The rest is jose's own: the key selection (kid, kty,
 * alg, its errors) and the claims (UnsecuredJWT.decode runs the same claim checks as jwtVerify on the
 * payload, once the signature is known good). A header with crit or b64 is refused (no JWT needs them).
 */
async function verifySignedJwt(
  jwt: string,
  select: ReturnType<typeof createLocalJWKSet>,
  options: JWTVerifyOptions,
): Promise<JWTPayload> {
  const segments = jwt.split('.');
  if (segments.length !== 3) throw new joseErrors.JWSInvalid('Invalid Compact JWS');
  const [protectedSegment, payloadSegment, signature] = segments as [string, string, string];
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw new joseErrors.JWSInvalid('JWS Protected Header is invalid');
  }
  const { alg } = header;
  if (typeof alg !== 'string' || !alg)
    throw new joseErrors.JWSInvalid('JWS "alg" (Algorithm) Header Parameter missing or invalid');
  if (header.crit !== undefined || header.b64 !== undefined)
    throw new joseErrors.JWSInvalid('JWS "crit" and "b64" Header Parameters are not supported');
  if (options.algorithms && !options.algorithms.includes(alg))
    throw new joseErrors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');
  const selected = await select(header, { payload: payloadSegment, signature });
  const key = keyObjectOf(selected);
  const data = Buffer.from(jwt.slice(0, protectedSegment.length + payloadSegment.length + 1));
  if (
    !verify(
      alg === 'EdDSA' || alg === 'Ed25519' ? null : (DIGESTS[alg] ?? 'sha256'),
      data,
      verifyKeyOf(alg, key),
      Buffer.from(signature, 'base64url'),
    )
  )
    throw new joseErrors.JWSSignatureVerificationFailed();
  const unsecuredHeader = Buffer.from(
    JSON.stringify({ alg: 'none', ...(header.typ !== undefined ? { typ: header.typ } : {}) }),
  ).toString('base64url');
  return UnsecuredJWT.decode(`${unsecuredHeader}.${payloadSegment}.`, options).payload;
}

const DIGESTS: Record<string, string> = {
  RS256: 'sha256',
  PS256: 'sha256',
  ES256: 'sha256',
  RS384: 'sha384',
  PS384: 'sha384',
  ES384: 'sha384',
  RS512: 'sha512',
  PS512: 'sha512',
  ES512: 'sha512',
};

function keyObjectOf(key: object): KeyObject {
  if (key instanceof KeyObject) return key;
  let known = keyObjects.get(key);
  if (!known) {
    known = KeyObject.from(key as Parameters<typeof KeyObject.from>[0]);
    keyObjects.set(key, known);
  }
  return known;
}

function verifyKeyOf(alg: string, key: KeyObject): Parameters<typeof verify>[2] {
  if (alg.startsWith('ES')) return { key, dsaEncoding: 'ieee-p1363' };
  if (alg.startsWith('PS'))
    return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST };
  return key;
}
