import { type Clock, sha256 } from '@sesame/platform';
import { decodeProtectedHeader } from 'jose';
import type { ReplayStore } from './client-assertion';
import { DpopProblem } from './dpop-errors';
import type { DpopNonces } from './dpop-nonce';
import { type ProofKey, ProofKeyCache, verifyProofSignature } from './dpop-signature';
import { DPOP_SIGNING_ALGS } from './vocabulary';

/** A proof's iat may be this many seconds old at most (RFC 9449 §11.1: a short window). */
export const DPOP_PROOF_MAX_AGE_S = 60;
/** ... and this many seconds ahead of the server's clock (the client's clock may run fast). */
export const DPOP_CLOCK_SKEW_S = 30;
/** A jti longer than this is refused: it is hashed into a KV key, and real ones are ~22–43 characters. */
const MAX_JTI_LENGTH = 256;
/** A proof is one small JWS; anything much larger is not one (and is not worth parsing). */
const MAX_PROOF_LENGTH = 8 * 1024;

export interface DpopVerifierDeps {
  clock: Clock;
  /** The KV store: a proof's jti is remembered there while its iat is acceptable, on every pod. */
  replays: ReplayStore;
  /** Server nonces (RFC 9449 §8), when configured: every proof must then carry a current one. */
  nonces?: DpopNonces;
}

/** What one request offers and expects. */
export interface DpopRequest {
  /** The DPoP header field's values (node: a string, or an array when sent more than once). */
  header: string | string[] | undefined;
  /** The request's method and the endpoint's URL as the issuer spells it (no query). */
  method: string;
  url: string;
  /** At a protected resource: the access token, whose hash the proof must carry (ath). */
  accessToken?: string;
}

export interface DpopProof {
  /** The JWK SHA-256 thumbprint of the proof's key (RFC 7638): what a bound token's cnf.jkt holds. */
  jkt: string;
}

export interface DpopVerifier {
  /** Resolves with the proof's key thumbprint, or throws a DpopProblem saying which rule failed. */
  verify(request: DpopRequest): Promise<DpopProof>;
}

/**
 * A DPoP proof (RFC 9449 §4.3), checked in the RFC's order: one header field, a JWS with typ dpop+jwt, an
 * asymmetric alg of DPOP_SIGNING_ALGS, a public jwk in the header that verifies the signature, jti, htm (the
 * request's method), htu (the endpoint's URL, compared without query and fragment after normalization), a
 * server nonce when configured, iat at most 60 s old and 30 s ahead, ath (= base64url SHA-256 of the access
 * token) at a resource, and the jti never seen before for that key: it is kept in the KV store for as long
 * as the proof's iat stays acceptable, so a replay on any pod is refused.
 */
export function dpopVerifier(deps: DpopVerifierDeps): DpopVerifier {
  const keys = new ProofKeyCache();
  return {
    async verify(request) {
      const proof = oneProof(request.header);
      const segments = proof.split('.');
      // A header seen before passed checkHeader then: its key is imported and its thumbprint known.
      const key = (segments.length === 3 && keys.get(segments[0]!)) || headerKey(proof, segments, keys);
      const checked = verifyProofSignature(proof, segments as [string, string, string], key);
      if (!checked.ok) throw invalid(FAILURES[checked.reason]);
      const { payload, jkt } = checked;
      checkClaims(payload, request);
      if (deps.nonces) {
        const nonce = payload.nonce;
        if (typeof nonce !== 'string' || !deps.nonces.accepts(nonce)) {
          const said = nonce === undefined ? 'DPoP proof must carry the server nonce' : 'DPoP nonce is stale';
          throw new DpopProblem('use_dpop_nonce', said, deps.nonces.current());
        }
      }
      const nowS = Math.floor(deps.clock.now() / 1000);
      const iat = payload.iat as number;
      if (iat > nowS + DPOP_CLOCK_SKEW_S) throw invalid('DPoP proof iat is in the future');
      if (iat < nowS - DPOP_PROOF_MAX_AGE_S) throw invalid('DPoP proof is too old (iat)');
      if (request.accessToken !== undefined && payload.ath !== sha256(request.accessToken))
        throw invalid('DPoP proof ath does not match the access token');
      // Kept until the iat leaves the window (plus a second for rounding): a later replay is old anyway.
      const ttlMs = (iat - nowS + DPOP_PROOF_MAX_AGE_S + 1) * 1000;
      const jtiKey = `dpop-jti:${sha256(`${jkt}\u0000${payload.jti}`)}`;
      if (!(await deps.replays.set(jtiKey, '1', { ttlMs, onlyIfAbsent: true })))
        throw invalid('DPoP proof jti has already been used');
      return { jkt };
    },
  };
}

/**
 * An endpoint's URL as discovery names it (`{issuer}/token`, the issuer's path kept): what a proof's htu
 * must be.
 */
export function issuerEndpoint(issuer: string, path: string): string {
  // The trailing slashes dropped without a regular expression: this runs on every DPoP-checked request.
  let end = issuer.length;
  while (end > 0 && issuer.charCodeAt(end - 1) === 0x2f) end--;
  return `${issuer.slice(0, end)}${path}`;
}

const invalid = (description: string) => new DpopProblem('invalid_dpop_proof', description);

function oneProof(header: string | string[] | undefined): string {
  if (Array.isArray(header)) {
    if (header.length !== 1) throw invalid('exactly one DPoP header must be sent');
    return oneProof(header[0]);
  }
  if (!header) throw invalid('the DPoP header is missing');
  if (header.length > MAX_PROOF_LENGTH || header.includes(','))
    throw invalid('exactly one DPoP proof must be sent');
  return header;
}

const FAILURES = {
  signature: 'DPoP proof signature is not valid',
  payload: 'DPoP proof is not a valid JWT',
} as const;

/** A header not seen before: checked, then its key imported and remembered (ProofKeyCache). */
function headerKey(proof: string, segments: string[], keys: ProofKeyCache): ProofKey {
  const { alg, jwk } = checkHeader(proof, segments);
  const key = keys.add(segments[0]!, alg, jwk);
  if (!key) throw invalid('DPoP proof jwk is not a public key of its alg');
  return key;
}

function checkHeader(proof: string, segments: string[]): { alg: string; jwk: Record<string, unknown> } {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalid('DPoP proof is not a JWT');
  }
  if (segments.length !== 3) throw invalid('DPoP proof is not a signed JWT');
  if (header.typ !== 'dpop+jwt') throw invalid('DPoP proof typ must be dpop+jwt');
  const { alg } = header;
  if (typeof alg !== 'string' || !(DPOP_SIGNING_ALGS as readonly string[]).includes(alg))
    throw invalid(`DPoP proof must be signed with ${DPOP_SIGNING_ALGS.join(', ')}`);
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (!jwk || typeof jwk !== 'object') throw invalid('DPoP proof must carry its public key (jwk)');
  if (jwk.kty === 'oct' || 'd' in jwk || 'p' in jwk || 'k' in jwk)
    throw invalid('DPoP proof jwk must be a public key');
  if (header.crit !== undefined) throw invalid('DPoP proof must not carry crit');
  return { alg, jwk };
}

function checkClaims(payload: Record<string, unknown>, request: DpopRequest): void {
  for (const claim of ['jti', 'htm', 'htu', 'iat'])
    if (payload[claim] === undefined) throw invalid(`DPoP proof must carry a valid ${claim}`);
  if (typeof payload.iat !== 'number' || !Number.isFinite(payload.iat))
    throw invalid('DPoP proof must carry a valid iat');
  const { jti, htm, htu } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH)
    throw invalid('DPoP proof jti must be a string of 1 to 256 characters');
  if (htm !== request.method) throw invalid('DPoP proof htm does not match the request method');
  if (typeof htu !== 'string' || !sameTarget(htu, request.url))
    throw invalid('DPoP proof htu does not match the endpoint URL');
  if (request.accessToken !== undefined && typeof payload.ath !== 'string')
    throw invalid('DPoP proof must carry ath for the access token');
}

/** RFC 9449 §4.3 (9): htu against the endpoint, without query and fragment, after URL normalization. */
function sameTarget(htu: string, url: string): boolean {
  // The same string normalizes the same way (url, the endpoint, always parses): what clients send.
  if (htu === url) return true;
  if (!URL.canParse(htu)) return false;
  const strip = (u: URL) => `${u.protocol}//${u.host}${u.pathname}`;
  return strip(new URL(htu)) === strip(new URL(url));
}
