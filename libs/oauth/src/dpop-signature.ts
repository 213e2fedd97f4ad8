import { constants, type KeyObject, createPublicKey, verify } from 'node:crypto';
import { sha256 } from '@sesame/platform';

/**
 * The JWS check of a DPoP proof with node:crypto directly: jose's jwtVerify with EmbeddedJWK imports the key
 * through WebCrypto on every request, which cost a DPoP /token request about ten ES256 verifications more
 * than client_secret_post (bench/token-dpop.bench.ts); crypto.verify with a KeyObject imported once per key
 * (ProofKeyCache, by the proof's header) costs far less.
 * `alg` was already checked against DPOP_SIGNING_ALGS; the key must be of that alg's type.
 */
export type ProofKeyCheck =
  | { ok: true; payload: Record<string, unknown>; jkt: string }
  | { ok: false; reason: 'signature' | 'payload' };

const KEY_TYPES: Record<string, (jwk: Record<string, unknown>) => boolean> = {
  ES256: (k) => k.kty === 'EC' && k.crv === 'P-256',
  PS256: (k) => k.kty === 'RSA' && rsaBits(k) >= 2048,
  RS256: (k) => k.kty === 'RSA' && rsaBits(k) >= 2048,
  EdDSA: (k) => k.kty === 'OKP' && k.crv === 'Ed25519',
};

const rsaBits = (k: Record<string, unknown>) =>
  typeof k.n === 'string' ? Buffer.from(k.n, 'base64url').length * 8 : 0;

/** RFC 7638: the SHA-256 of the required members, in lexicographic order, as JSON. */
const THUMBPRINT_MEMBERS: Record<string, string[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  OKP: ['crv', 'kty', 'x'],
};

function thumbprint(jwk: Record<string, unknown>): string {
  const members = THUMBPRINT_MEMBERS[jwk.kty as string] ?? [];
  return sha256(JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]]))));
}

/** How many proof headers a verifier remembers (a client signs with one key for a while); then it starts over. */
const MAX_CACHED_HEADERS = 1000;

/** A proof header that passed the header checks, its key imported once and its thumbprint computed once. */
export interface ProofKey {
  alg: string;
  jkt: string;
  /** What crypto.verify takes for this alg, built once (the KeyObject and its padding or encoding). */
  verifyKey: VerifyKeyInput;
  /** The digest crypto.verify takes for this alg (null for EdDSA). */
  digest: string | null;
}

type VerifyKeyInput = Parameters<typeof verify>[2];

/**
 * Proof keys by the proof's protected header segment as sent (base64url): a client's proofs all carry the
 * same header ({typ, alg, jwk}), so once one passed the header checks and its jwk was imported, the next ones
 * need one Map lookup instead of a base64url decode, a JSON parse, the checks, a key import and a thumbprint
 * (together about half a signature verification per request). Only headers that passed are kept; bounded.
 */
export class ProofKeyCache {
  private readonly keys = new Map<string, ProofKey>();

  get(headerSegment: string): ProofKey | undefined {
    return this.keys.get(headerSegment);
  }

  /**
   * The key of a header whose checks passed (`alg` of DPOP_SIGNING_ALGS, a public `jwk`), remembered under its
   * segment; undefined when `jwk` is no valid public key of `alg`.
   */
  add(headerSegment: string, alg: string, jwk: Record<string, unknown>): ProofKey | undefined {
    if (!KEY_TYPES[alg]?.(jwk)) return undefined;
    let key: KeyObject;
    try {
      key = createPublicKey({ key: jwk as never, format: 'jwk' });
    } catch {
      return undefined;
    }
    const entry: ProofKey = {
      alg,
      jkt: thumbprint(jwk),
      digest: alg === 'EdDSA' ? null : 'sha256',
      verifyKey:
        alg === 'ES256'
          ? { key, dsaEncoding: 'ieee-p1363' }
          : alg === 'PS256'
            ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
            : key,
    };
    if (this.keys.size >= MAX_CACHED_HEADERS) this.keys.clear();
    this.keys.set(headerSegment, entry);
    return entry;
  }
}

/** The JWS signature of a compact proof (its three segments) by `key`, then its payload as an object. */
export function verifyProofSignature(
  proof: string,
  segments: readonly [string, string, string],
  key: ProofKey,
): ProofKeyCheck {
  const [, body, signature] = segments;
  const data = Buffer.from(proof.slice(0, proof.length - signature.length - 1));
  const valid = verify(key.digest, data, key.verifyKey, Buffer.from(signature, 'base64url'));
  if (!valid) return { ok: false, reason: 'signature' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'payload' };
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    return { ok: false, reason: 'payload' };
  return { ok: true, payload: payload as Record<string, unknown>, jkt: key.jkt };
}
