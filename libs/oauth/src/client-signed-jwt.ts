import { constants, KeyObject, verify } from 'node:crypto';
import {
  type JSONWebKeySet,
  type JWTPayload,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
} from 'jose';
import type { ClientJwks, KeyedClient } from './client-jwks';
import { type DecodedPayload, type JwtClaimChecks, checkClaims, claimsOf } from './jwt-claims';

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
 * for the caller to name in its own error code. `decoded`: a payload the caller already decoded (claimsOf),
 * used instead of decoding again only when its segment is this JWT's.
 */
export async function verifyClientSignedJwt(
  jwks: ClientJwks,
  client: KeyedClient,
  jwt: string,
  options: JwtClaimChecks,
  decoded?: DecodedPayload,
): Promise<JWTPayload> {
  // A set in memory (by value, or fetched and still fresh) needs no await; only a fetch does.
  const set = jwks.keysInMemory(client) ?? (await jwks.keysOf(client));
  if (!set) throw new joseErrors.JWKSNoMatchingKey();
  try {
    return await verifySignedJwt(jwt, set, options, decoded);
  } catch (err) {
    if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
    const refetched = await jwks.keysOf(client, { refresh: true });
    if (!refetched) throw err;
    return verifySignedJwt(jwt, refetched, options, decoded);
  }
}

/** What verifying under one protected header with one key set takes, found and built once (HeaderKeys). */
interface HeaderKey {
  alg: string;
  /** crypto.verify's digest (null for EdDSA) and key input (the KeyObject, with its encoding or padding). */
  digest: string | null;
  verifyKey: Parameters<typeof verify>[2];
}

/** How many protected headers are remembered per key set (a client signs with one or two keys); then it starts over. */
const MAX_HEADERS_PER_SET = 100;

/**
 * The key of each protected header segment (as sent) that verified a JWT under a key set: a client's JWTs
 * all carry the same header ({alg, kid}), and what it leads to (the checks of the header, jose's key
 * selection, the KeyObject) depends on nothing else, so the next JWT needs one Map lookup instead of a
 * base64url decode, a JSON parse and a selection. Kept per set object (a refetched or changed set is a new
 * object, with no entries); only headers of JWTs whose signature verified are kept.
 */
const headerKeys = new WeakMap<JSONWebKeySet, Map<string, HeaderKey>>();

function remember(set: JSONWebKeySet, headerSegment: string, key: HeaderKey): void {
  let known = headerKeys.get(set);
  if (!known) {
    known = new Map();
    headerKeys.set(set, known);
  }
  if (known.size >= MAX_HEADERS_PER_SET) known.clear();
  known.set(headerSegment, key);
}

/**
 * jose's jwtVerify with the signature checked by node:crypto: jose verifies through WebCrypto, which cost
 * about half a signature verification more per JWT. The key selection (kid, kty, alg, its errors) is jose's;
 * the claims are checked once the signature is known good, as jwtVerify checks them (jwt-claims.ts). A header
 * with crit or b64 is refused (no JWT needs them). A header already seen with this set skips the header's
 * decoding and the selection (headerKeys); `alg` is still checked against `options.algorithms`, which differ
 * between callers.
 */
async function verifySignedJwt(
  jwt: string,
  set: JSONWebKeySet,
  options: JwtClaimChecks,
  decoded: DecodedPayload | undefined,
): Promise<JWTPayload> {
  const segments = jwt.split('.');
  if (segments.length !== 3) throw new joseErrors.JWSInvalid('Invalid Compact JWS');
  const [protectedSegment, payloadSegment, signature] = segments as [string, string, string];
  const known = headerKeys.get(set)?.get(protectedSegment);
  const key = known ?? (await selectKey(jwt, set, payloadSegment, signature, options));
  if (known && options.algorithms && !options.algorithms.includes(known.alg))
    throw new joseErrors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');
  const data = Buffer.from(jwt.slice(0, protectedSegment.length + payloadSegment.length + 1));
  if (!verify(key.digest, data, key.verifyKey, Buffer.from(signature, 'base64url')))
    throw new joseErrors.JWSSignatureVerificationFailed();
  if (!known) remember(set, protectedSegment, key);
  const payload = decoded?.segment === payloadSegment ? decoded.claims : claimsOf(payloadSegment);
  checkClaims(payload, options);
  return payload;
}

/** A header not seen with this set: decoded, checked, and its key selected by jose. */
async function selectKey(
  jwt: string,
  set: JSONWebKeySet,
  payloadSegment: string,
  signature: string,
  options: JwtClaimChecks,
): Promise<HeaderKey> {
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
  const selected = await selectorOf(set)(header, { payload: payloadSegment, signature });
  return {
    alg,
    digest: alg === 'EdDSA' || alg === 'Ed25519' ? null : (DIGESTS[alg] ?? 'sha256'),
    verifyKey: verifyKeyOf(alg, keyObjectOf(selected)),
  };
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
