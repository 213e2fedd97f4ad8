import { type JWTPayload, errors as joseErrors } from 'jose';

/**
 * What a client-signed JWT (a client assertion, a signed request object or CIBA request) is checked against:
 * the part of jose's JWTVerifyOptions that Sesame's verifiers use, every member required but `subject`.
 */
export interface JwtClaimChecks {
  /** The JWS algs accepted (checked against the protected header before the signature). */
  algorithms: readonly string[];
  issuer: string;
  subject?: string;
  /** The aud values accepted: the JWT's aud (a string, or an array) must name one of them. */
  audience: string | readonly string[];
  /** Claims that must be present (iss, aud and, with `subject`, sub always are). */
  requiredClaims: readonly string[];
  /** Seconds of clock difference tolerated on exp and nbf. */
  clockTolerance: number;
  currentDate: Date;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A payload segment decoded before its JWT was verified (readClientCredentials reads the client's sub from
 * it): its claims are used in the verification only if `segment` is the very segment the signature covers.
 */
export interface DecodedPayload {
  segment: string;
  claims: JWTPayload;
}

/**
 * A JWT's payload segment (base64url) as its claims: a JSON object (not an array, not a class instance) in
 * strict UTF-8, as jose requires; otherwise jose's JWTInvalid. The base64url is decoded as node decodes it,
 * which skips characters outside the alphabet where jose would refuse them: the claims are trusted only after
 * the signature over the segment as sent has verified, so such a segment gains nothing.
 */
export function claimsOf(payloadSegment: string): JWTPayload {
  let claims: unknown;
  try {
    claims = JSON.parse(strictUtf8.decode(Buffer.from(payloadSegment, 'base64url')));
  } catch (cause) {
    throw new joseErrors.JWTInvalid('JWT Claims Set must be a top-level JSON object', { cause });
  }
  if (!isPlainObject(claims))
    throw new joseErrors.JWTInvalid('JWT Claims Set must be a top-level JSON object');
  return claims as JWTPayload;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
}

/**
 * The claim checks of jose's jwtVerify (its validateClaimsSet), in its order and with its errors, so callers
 * name a failure the same way: presence (iss, sub, aud, then the required claims), iss, sub, aud, then iat,
 * nbf and exp as numbers, nbf not after now + tolerance, exp after now − tolerance (JWTExpired). Done by hand
 * once the signature is known good: jose's UnsecuredJWT.decode ran the same checks but decoded and parsed an
 * unsecured header and the payload again for each JWT.
 */
export function checkClaims(claims: JWTPayload, checks: JwtClaimChecks): void {
  const presence = ['iss', ...(checks.subject !== undefined ? ['sub'] : []), 'aud'];
  for (let i = checks.requiredClaims.length - 1; i >= 0; i--) presence.push(checks.requiredClaims[i]!);
  for (const claim of presence)
    if (!Object.hasOwn(claims, claim))
      throw new joseErrors.JWTClaimValidationFailed(
        `missing required "${claim}" claim`,
        claims,
        claim,
        'missing',
      );
  if (claims.iss !== checks.issuer) unexpected(claims, 'iss');
  if (checks.subject !== undefined && claims.sub !== checks.subject) unexpected(claims, 'sub');
  if (!audiencePresent(claims.aud, checks.audience)) unexpected(claims, 'aud');
  const now = Math.floor(checks.currentDate.getTime() / 1000);
  numericDate(claims, 'iat');
  const nbf = numericDate(claims, 'nbf');
  if (nbf !== undefined && nbf > now + checks.clockTolerance)
    throw new joseErrors.JWTClaimValidationFailed(
      '"nbf" claim timestamp check failed',
      claims,
      'nbf',
      'check_failed',
    );
  const exp = numericDate(claims, 'exp');
  if (exp !== undefined && exp <= now - checks.clockTolerance)
    throw new joseErrors.JWTExpired('"exp" claim timestamp check failed', claims, 'exp', 'check_failed');
}

function audiencePresent(aud: unknown, accepted: string | readonly string[]): boolean {
  const list = typeof accepted === 'string' ? [accepted] : accepted;
  if (typeof aud === 'string') return list.includes(aud);
  return Array.isArray(aud) && list.some((a) => aud.includes(a));
}

function numericDate(claims: JWTPayload, claim: 'iat' | 'nbf' | 'exp'): number | undefined {
  const value = claims[claim];
  if (value === undefined) return undefined;
  if (typeof value !== 'number')
    throw new joseErrors.JWTClaimValidationFailed(
      `"${claim}" claim must be a number`,
      claims,
      claim,
      'invalid',
    );
  return value;
}

function unexpected(claims: JWTPayload, claim: string): never {
  throw new joseErrors.JWTClaimValidationFailed(
    `unexpected "${claim}" claim value`,
    claims,
    claim,
    'check_failed',
  );
}
