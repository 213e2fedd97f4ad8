import type { Clock } from '@sesame/platform';
import { sha256 } from '@sesame/platform';
import { type JWTPayload, decodeProtectedHeader } from 'jose';
import type { ReplayStore } from './client-assertion';
import type { ClientJwks, KeyedClient } from './client-jwks';
import { verifyClientSignedJwt } from './client-signed-jwt';
import { oauthErrors } from './errors';
import {
  REQUEST_OBJECT_CLOCK_SKEW_S,
  checkClientJwtLifetime,
  describeClientJwtFailure,
} from './signed-request-object';
import { BACKCHANNEL_AUTHENTICATION_REQUEST_SIGNING_ALGS } from './vocabulary';

/** What a signed CIBA request needs of a client: its keys, and the one alg it may require. */
export interface SignedCibaRequestClient extends KeyedClient {
  /** RS256, PS256 or ES256: only that alg is taken; empty: any of them. */
  backchannelAuthenticationRequestSigningAlg: string;
}

export interface SignedCibaRequestDeps {
  clock: Clock;
  jwks: ClientJwks;
  /** Each jti is remembered here until the request expires (the KV store: a replay to any pod is refused). */
  replays: ReplayStore;
  /** The aud the request must name (CIBA Core 7.1.1): this server's issuer. */
  issuer: string;
}

export type SignedCibaRequestVerifier = (
  client: SignedCibaRequestClient,
  jwt: string,
) => Promise<Record<string, unknown>>;

const NOUN = 'signed authentication request';
/** CIBA Core §13 has no invalid_request_object: a bad `request` is a malformed request. */
const refuse = (description: string) => oauthErrors.invalidRequest(description);

/**
 * A signed authentication request at /authorize_ciba (CIBA Core 7.1.1; FAPI-CIBA 5.2.2): a JWS by one of the
 * client's keys (RS256, PS256 or ES256; the app's backchannel_authentication_request_signing_alg when set),
 * with iss = the client's id, aud = the issuer, and exp, iat, nbf and jti all present. The time rules are
 * JAR's under FAPI (exp at most 60 minutes ahead and after nbf, nbf at most 60 minutes old, iat not in the
 * future; 30 s of skew); the jti is used once per client until the request expires. Every refusal is
 * invalid_request naming the rule. Returns the claims: the request's parameters.
 */
export function signedCibaRequestVerifier(deps: SignedCibaRequestDeps): SignedCibaRequestVerifier {
  return async (client, jwt) => {
    const allowed = client.backchannelAuthenticationRequestSigningAlg
      ? [client.backchannelAuthenticationRequestSigningAlg]
      : [...BACKCHANNEL_AUTHENTICATION_REQUEST_SIGNING_ALGS];
    const alg = headerAlg(jwt);
    if (!allowed.includes(alg))
      throw refuse(`request must be signed with ${allowed.join(', ')} (this client's keys)`);
    if (!client.jwks && !client.jwksUri)
      throw refuse('the client has no registered keys (jwks or jwks_uri) to verify the signed request');
    const payload = await verify(deps, client, jwt, allowed);
    const nowS = Math.floor(deps.clock.now() / 1000);
    checkClientJwtLifetime(payload, nowS, refuse, NOUN);
    if ((payload.iat as number) > nowS + REQUEST_OBJECT_CLOCK_SKEW_S)
      throw refuse(`${NOUN} iat is in the future`);
    if (typeof payload.jti !== 'string' || payload.jti === '') throw refuse(`${NOUN} jti must be a string`);
    const ttlMs = ((payload.exp as number) - nowS + REQUEST_OBJECT_CLOCK_SKEW_S) * 1000;
    const key = `ciba-request-jti:${sha256(`${client.clientId}\u0000${payload.jti}`)}`;
    if (!(await deps.replays.set(key, '1', { ttlMs, onlyIfAbsent: true })))
      throw refuse(`${NOUN} jti has already been used`);
    return payload as Record<string, unknown>;
  };
}

function headerAlg(jwt: string): string {
  try {
    const { alg } = decodeProtectedHeader(jwt);
    if (typeof alg === 'string') return alg;
  } catch {
    // answered below
  }
  throw refuse('request is not a JWT with a readable header');
}

async function verify(
  deps: SignedCibaRequestDeps,
  client: SignedCibaRequestClient,
  jwt: string,
  algorithms: string[],
): Promise<JWTPayload> {
  try {
    return await verifyClientSignedJwt(deps.jwks, client, jwt, {
      algorithms,
      issuer: client.clientId,
      audience: deps.issuer,
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'nbf', 'jti'],
      clockTolerance: REQUEST_OBJECT_CLOCK_SKEW_S,
      currentDate: new Date(deps.clock.now()),
    });
  } catch (err) {
    throw describeClientJwtFailure(err, refuse, NOUN);
  }
}
