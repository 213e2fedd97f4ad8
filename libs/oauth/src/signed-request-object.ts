import type { Clock } from '@sesame/platform';
import { OAuthError } from '@sesame/platform';
import { type JWTPayload, decodeProtectedHeader, errors as joseErrors } from 'jose';
import type { ClientJwks, KeyedClient } from './client-jwks';
import { verifyClientSignedJwt } from './client-signed-jwt';
import { oauthErrors } from './errors';
import { REQUEST_OBJECT_SIGNED_ALGS } from './vocabulary';

/** Seconds of clock difference tolerated on exp and nbf. */
export const REQUEST_OBJECT_CLOCK_SKEW_S = 30;
/** FAPI 2.0 Message Signing 5.3.1: exp at most 60 minutes after nbf, nbf at most 60 minutes in the past. */
export const REQUEST_OBJECT_MAX_LIFETIME_S = 60 * 60;

/** What a signed request object needs of a client: its keys, and the one alg it may require. */
export interface RequestObjectClient extends KeyedClient {
  /** RS256, PS256 or ES256: only that alg is taken; empty: any of REQUEST_OBJECT_SIGNED_ALGS. */
  requestObjectSigningAlg: string;
}

export interface SignedRequestObjectDeps {
  clock: Clock;
  jwks: ClientJwks;
  /** The aud a request object must name (RFC 9101 §4): this server's issuer. */
  issuer: string;
}

export type SignedRequestObjectVerifier = (
  client: RequestObjectClient,
  jws: string,
) => Promise<Record<string, unknown>>;

const refuse = (description: string) => oauthErrors.invalidRequestObject(description);

/**
 * JAR (RFC 9101 §4, §6.1) with FAPI 2.0's time rules: a JWS by one of the client's keys (RS256, PS256 or
 * ES256; the app's request_object_signing_alg when set), iss and client_id = the client's id, aud = the
 * issuer, exp present, not passed and at most 60 minutes ahead, nbf (when present) not in the future and
 * at most 60 minutes old. An unknown kid refetches a jwks_uri once. Every refusal is invalid_request_object.
 * JAR asks for no jti, so none is remembered: a replay within exp gives the same request again.
 */
export function signedRequestObjectVerifier(deps: SignedRequestObjectDeps): SignedRequestObjectVerifier {
  return async (client, jws) => {
    const allowed = allowedAlgs(client);
    const alg = headerAlg(jws);
    if (!allowed.includes(alg))
      throw refuse(`request object must be signed with ${allowed.join(', ')} (this client's keys)`);
    if (!client.jwks && !client.jwksUri)
      throw refuse('the client has no registered keys (jwks or jwks_uri) to verify the request object');
    const payload = await verify(deps, client, jws, allowed);
    checkClientJwtLifetime(payload, Math.floor(deps.clock.now() / 1000), refuse, 'request object');
    if (payload.client_id !== client.clientId)
      throw refuse("request object client_id must be the client's client_id");
    return payload as Record<string, unknown>;
  };
}

function allowedAlgs(client: RequestObjectClient): string[] {
  return client.requestObjectSigningAlg ? [client.requestObjectSigningAlg] : [...REQUEST_OBJECT_SIGNED_ALGS];
}

function headerAlg(jws: string): string {
  try {
    const { alg } = decodeProtectedHeader(jws);
    if (typeof alg === 'string') return alg;
  } catch {
    // answered below
  }
  throw refuse('request object has no readable JWS header');
}

async function verify(
  deps: SignedRequestObjectDeps,
  client: RequestObjectClient,
  jws: string,
  algorithms: string[],
): Promise<JWTPayload> {
  try {
    return await verifyClientSignedJwt(deps.jwks, client, jws, {
      algorithms,
      issuer: client.clientId,
      audience: deps.issuer,
      requiredClaims: ['iss', 'aud', 'exp', 'client_id'],
      clockTolerance: REQUEST_OBJECT_CLOCK_SKEW_S,
      currentDate: new Date(deps.clock.now()),
    });
  } catch (err) {
    throw describeClientJwtFailure(err, refuse, 'request object');
  }
}

/**
 * jose's failures, and the key set's (invalid_client), as the caller's error (`refuse`) naming the rule; `noun`
 * names the JWT ("request object", "signed authentication request"). Shared with signed-ciba-request.ts.
 */
export function describeClientJwtFailure(
  err: unknown,
  refuse: (description: string) => OAuthError,
  noun: string,
): unknown {
  if (err instanceof OAuthError && err.code === 'invalid_client') return refuse(err.description);
  if (err instanceof joseErrors.JWTExpired) return refuse(`${noun} has expired (exp)`);
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    const claim = err.claim;
    if (err.reason === 'missing') return refuse(`${noun} must contain ${claim}`);
    if (claim === 'iss') return refuse(`${noun} iss must be the client's client_id`);
    if (claim === 'aud') return refuse(`${noun} aud must be the issuer`);
    if (claim === 'nbf') return refuse(`${noun} is not valid yet (nbf)`);
    return refuse(`${noun} ${claim} is not valid`);
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey)
    return refuse(`no key of the client matches the ${noun}'s kid and alg`);
  if (err instanceof joseErrors.JWKSMultipleMatchingKeys)
    return refuse(`${noun} must name its key (kid): several keys of the client match`);
  if (err instanceof joseErrors.JWSSignatureVerificationFailed)
    return refuse(`${noun} signature is not valid`);
  if (err instanceof joseErrors.JOSEError) return refuse(`${noun} is not a valid signed JWT`);
  return err;
}

/**
 * FAPI 2.0 Message Signing 5.3.1 (FAPI 1 Advanced 5.2.2 for FAPI-CIBA): exp at most 60 minutes ahead; nbf, when
 * present, at most 60 minutes old and exp at most 60 minutes after it. Shared with signed-ciba-request.ts.
 */
export function checkClientJwtLifetime(
  payload: JWTPayload,
  nowS: number,
  refuse: (description: string) => OAuthError,
  noun: string,
): void {
  const skew = REQUEST_OBJECT_CLOCK_SKEW_S;
  const exp = payload.exp as number;
  if (exp > nowS + REQUEST_OBJECT_MAX_LIFETIME_S + skew)
    throw refuse(`${noun} exp must be at most ${REQUEST_OBJECT_MAX_LIFETIME_S} seconds ahead`);
  if (typeof payload.nbf === 'number') {
    if (payload.nbf < nowS - REQUEST_OBJECT_MAX_LIFETIME_S - skew)
      throw refuse(`${noun} nbf must be at most ${REQUEST_OBJECT_MAX_LIFETIME_S} seconds old`);
    if (exp - payload.nbf > REQUEST_OBJECT_MAX_LIFETIME_S)
      throw refuse(`${noun} must be valid for at most ${REQUEST_OBJECT_MAX_LIFETIME_S} seconds`);
  }
}
