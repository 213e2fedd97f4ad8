import { constants, type KeyObject, randomUUID, sign, verify } from 'node:crypto';

/** Why a compact JWS was not accepted; the message may go back to the caller (never key material). */
export class JwsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwsError';
  }
}

const B64URL = /^[A-Za-z0-9_-]*$/;
/** An id_token_hint is an ID token: a few KB at most. */
const MAX_JWS_LENGTH = 16_384;

/** The algs Sesame signs with (RFC 7518 §3.3, §3.5, §3.4) and node:crypto's options for each. */
const ALGS = {
  RS256: (key: KeyObject) => ({ key }),
  PS256: (key: KeyObject) => ({
    key,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }),
  ES256: (key: KeyObject) => ({ key, dsaEncoding: 'ieee-p1363' as const }),
} as const;
export type JwsAlg = keyof typeof ALGS;
export const isJwsAlg = (alg: unknown): alg is JwsAlg => typeof alg === 'string' && Object.hasOwn(ALGS, alg);

/** Signs a JWS signing input with the key of a JWS alg; the signature is base64url. */
export function signJwsInput(alg: JwsAlg, key: KeyObject, input: string): string {
  return sign('sha256', Buffer.from(input), ALGS[alg](key)).toString('base64url');
}

/**
 * Verifies a compact JWS (RFC 7515 §7.1) with the key its header's kid names (`keyOf`), and returns its
 * payload as text. The header's alg must be the alg of that published key (RS256, PS256 or ES256): never
 * `none`, an HMAC with a public key as secret, or one key used under another alg.
 */
export function verifyJws(
  jws: string,
  keyOf: (kid: string) => { key: KeyObject; alg: string } | undefined,
): { payload: string; kid: string } {
  if (jws.length > MAX_JWS_LENGTH) throw new JwsError('the JWS is too long');
  const parts = jws.split('.');
  if (parts.length !== 3 || !parts.every((p) => p.length > 0 && B64URL.test(p)))
    throw new JwsError('not a compact JWS');
  const [encodedHeader, encodedPayload, signature] = parts as [string, string, string];
  let header: { alg?: unknown; kid?: unknown };
  try {
    header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8'));
  } catch {
    throw new JwsError('the JWS header is not JSON');
  }
  if (!isJwsAlg(header?.alg)) throw new JwsError('the JWS must be signed with RS256, PS256 or ES256');
  if (typeof header.kid !== 'string' || !header.kid) throw new JwsError('the JWS header names no kid');
  const published = keyOf(header.kid);
  if (!published) throw new JwsError('the JWS was not signed with a published key');
  if (published.alg !== header.alg)
    throw new JwsError(`the key ${header.kid} signs ${published.alg}, not ${header.alg}`);
  const ok = verify(
    'sha256',
    Buffer.from(`${encodedHeader}.${encodedPayload}`),
    ALGS[header.alg](published.key),
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new JwsError('the JWS signature does not verify');
  return { payload: Buffer.from(encodedPayload, 'base64url').toString('utf8'), kid: header.kid };
}

export interface LogoutTokenInput {
  issuer: string;
  audience: string;
  sub?: string;
  sid?: string;
  ttlS: number;
  nowMs: number;
}

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * A Back-Channel Logout 1.0 logout token (§2.4): iss, aud, iat, exp, jti, sub and/or sid, and the events
 * member with the back-channel logout event; never a nonce. The header's typ is logout+jwt (§2.4, as
 * RFC 8725 §3.11 advises), so it cannot be mistaken for an ID token.
 */
export function signLogoutToken(
  signing: { kid: string; alg: string; key: KeyObject },
  input: LogoutTokenInput,
): { token: string; jti: string } {
  if (!input.sub && !input.sid) throw new JwsError('a logout token needs sub or sid');
  const iat = Math.floor(input.nowMs / 1000);
  const jti = randomUUID();
  const claims = {
    iss: input.issuer,
    aud: input.audience,
    iat,
    exp: iat + input.ttlS,
    jti,
    ...(input.sub ? { sub: input.sub } : {}),
    ...(input.sid ? { sid: input.sid } : {}),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  };
  if (!isJwsAlg(signing.alg)) throw new JwsError(`cannot sign with ${signing.alg}`);
  const header = { alg: signing.alg, kid: signing.kid, typ: 'logout+jwt' };
  const input64 = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = signJwsInput(signing.alg, signing.key, input64);
  return { token: `${input64}.${signature}`, jti };
}
