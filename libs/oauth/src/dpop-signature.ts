import { constants, type KeyObject, createPublicKey, verify } from 'node:crypto';
import { sha256 } from '@sesame/platform';

/**
 * The JWS check of a DPoP proof with node:crypto directly: jose's jwtVerify with EmbeddedJWK imports the key
 * through WebCrypto on every request, which cost a DPoP /token request about ten ES256 verifications more
 * than client_secret_post (bench/token-dpop.bench.ts); crypto.verify with a KeyObject imported once per key
 * (ProofKeyCache) costs far less.
 * `alg` was already checked against DPOP_SIGNING_ALGS; the key must be of that alg's type.
 */
export type ProofKeyCheck =
  | { ok: true; payload: Record<string, unknown>; jkt: string }
  | { ok: false; reason: 'key' | 'signature' | 'payload' };

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

/** How many proof keys a verifier remembers (a client signs with one key for a while); then it starts over. */
const MAX_CACHED_KEYS = 1000;

/** Imported proof keys and their thumbprints by the jwk's JSON: importing a key costs more than verifying. */
export class ProofKeyCache {
  private readonly keys = new Map<string, { key: KeyObject; jkt: string } | null>();

  /** The key of `jwk`, or null when it is no valid public key. */
  get(jwk: Record<string, unknown>): { key: KeyObject; jkt: string } | null {
    const id = JSON.stringify(jwk);
    const known = this.keys.get(id);
    if (known !== undefined) return known;
    let entry: { key: KeyObject; jkt: string } | null;
    try {
      entry = { key: createPublicKey({ key: jwk as never, format: 'jwk' }), jkt: thumbprint(jwk) };
    } catch {
      entry = null;
    }
    if (this.keys.size >= MAX_CACHED_KEYS) this.keys.clear();
    this.keys.set(id, entry);
    return entry;
  }
}

export function verifyProofSignature(
  proof: string,
  alg: string,
  jwk: Record<string, unknown>,
  keys: ProofKeyCache,
): ProofKeyCheck {
  const [header, body, signature] = proof.split('.') as [string, string, string];
  if (!KEY_TYPES[alg]?.(jwk)) return { ok: false, reason: 'key' };
  const imported = keys.get(jwk);
  if (!imported) return { ok: false, reason: 'key' };
  const { key, jkt } = imported;
  const data = Buffer.from(`${header}.${body}`);
  const sig = Buffer.from(signature, 'base64url');
  let valid: boolean;
  if (alg === 'EdDSA') valid = verify(null, data, key, sig);
  else if (alg === 'ES256') valid = verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig);
  else if (alg === 'PS256')
    valid = verify(
      'sha256',
      data,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
      sig,
    );
  else valid = verify('sha256', data, key, sig);
  if (!valid) return { ok: false, reason: 'signature' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'payload' };
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    return { ok: false, reason: 'payload' };
  return { ok: true, payload: payload as Record<string, unknown>, jkt };
}
