import { type Clock, OAuthError, sha256 } from '@sesame/platform';
import { type JWTPayload, decodeProtectedHeader, errors as joseErrors } from 'jose';
import type { ClientJwks, KeyedClient } from './client-jwks';
import { verifyClientSignedJwt } from './client-signed-jwt';
import { oauthErrors } from './errors';
import type { DecodedPayload } from './jwt-claims';
import { CLIENT_ASSERTION_SIGNING_ALGS } from './vocabulary';

/** Seconds of clock difference tolerated on exp, nbf and iat. */
export const CLIENT_ASSERTION_CLOCK_SKEW_S = 30;
/** An assertion may not be valid for longer than this from now (its exp), so its jti need not be kept longer. */
export const CLIENT_ASSERTION_MAX_LIFETIME_S = 300;

/** The one KV operation replay detection needs (@sesame/kv's KeyValueStore has it). */
export interface ReplayStore {
  set(key: string, value: string, opts: { ttlMs: number; onlyIfAbsent?: boolean }): Promise<boolean>;
}

export interface ClientAssertionVerifierDeps {
  clock: Clock;
  jwks: ClientJwks;
  replays: ReplayStore;
  /**
   * The aud values accepted: the issuer (FAPI 2.0 Security Profile 5.3.2.1) and the token endpoint URL (RFC
   * 7523 §3); the endpoint called adds its own URL (node-oidc-provider accepts the same three). The first is
   * the issuer: the only one a FAPI 2.0 client's assertion may name.
   */
  audiences: readonly string[];
}

export interface ClientAssertionVerifier {
  /**
   * Resolves when `assertion` proves `client`; otherwise throws invalid_client saying which rule failed.
   * `issuerOnly` (a FAPI 2.0 client, §5.3.2.1): aud must be the issuer as a string, nothing else. `decoded`:
   * the payload readClientCredentials decoded, used only if it is this assertion's (not decoded again).
   */
  verify(
    client: KeyedClient,
    assertion: string,
    endpointUrl?: string,
    options?: { issuerOnly?: boolean; decoded?: DecodedPayload },
  ): Promise<void>;
}

/**
 * private_key_jwt (RFC 7523 §3, OIDC Core 9): a JWT signed with one of the client's keys (RS256, PS256 or
 * ES256 only), iss = sub = client_id, aud naming this server, exp required and at most five minutes ahead,
 * nbf and iat not in the future (30 s of skew), and a jti used once: it is remembered in the KV store until
 * the assertion expires, so a replay anywhere in the cluster is refused.
 */
export function clientAssertionVerifier(deps: ClientAssertionVerifierDeps): ClientAssertionVerifier {
  // Built once: the aud lists (per endpoint URL: a handful, named by the server) and the header segments
  // whose alg was already found acceptable (a client's assertions all carry the same header).
  const issuerAudience = deps.audiences.slice(0, 1);
  const serverAudiences = [...deps.audiences];
  const endpointAudiences = new Map<string, string[]>();
  const audiencesOf = (endpointUrl: string | undefined, issuerOnly: boolean): string[] => {
    if (issuerOnly) return issuerAudience;
    if (!endpointUrl) return serverAudiences;
    let audiences = endpointAudiences.get(endpointUrl);
    if (!audiences) {
      audiences = [...deps.audiences, endpointUrl];
      if (endpointAudiences.size < MAX_CACHED_HEADERS) endpointAudiences.set(endpointUrl, audiences);
    }
    return audiences;
  };
  const acceptedHeaders = new Set<string>();
  return {
    async verify(client, assertion, endpointUrl, options) {
      checkAlg(assertion, acceptedHeaders);
      const issuerOnly = options?.issuerOnly === true;
      let payload: JWTPayload;
      try {
        payload = await verifyClientSignedJwt(
          deps.jwks,
          client,
          assertion,
          {
            algorithms: ASSERTION_ALGS,
            issuer: client.clientId,
            subject: client.clientId,
            audience: audiencesOf(endpointUrl, issuerOnly),
            requiredClaims: REQUIRED_CLAIMS,
            clockTolerance: CLIENT_ASSERTION_CLOCK_SKEW_S,
            currentDate: new Date(deps.clock.now()),
          },
          options?.decoded,
        );
      } catch (err) {
        const described = describe(err);
        throw issuerOnly && described instanceof OAuthError && /aud must be/.test(described.description)
          ? FAPI2_AUD_REFUSED()
          : described;
      }
      if (issuerOnly && typeof payload.aud !== 'string') throw FAPI2_AUD_REFUSED();
      const nowS = Math.floor(deps.clock.now() / 1000);
      const exp = payload.exp as number;
      if (exp > nowS + CLIENT_ASSERTION_MAX_LIFETIME_S + CLIENT_ASSERTION_CLOCK_SKEW_S) {
        throw oauthErrors.invalidClient(
          `client_assertion exp must be at most ${CLIENT_ASSERTION_MAX_LIFETIME_S} seconds ahead`,
        );
      }
      if (typeof payload.iat === 'number' && payload.iat > nowS + CLIENT_ASSERTION_CLOCK_SKEW_S) {
        throw oauthErrors.invalidClient('client_assertion iat is in the future');
      }
      const ttlMs = (exp - nowS + CLIENT_ASSERTION_CLOCK_SKEW_S) * 1000;
      const key = `client-assertion-jti:${sha256(`${client.clientId}\u0000${payload.jti}`)}`;
      const first = await deps.replays.set(key, '1', { ttlMs, onlyIfAbsent: true });
      if (!first) throw oauthErrors.invalidClient('client_assertion jti has already been used');
    },
  };
}

const ASSERTION_ALGS: string[] = [...CLIENT_ASSERTION_SIGNING_ALGS];
const REQUIRED_CLAIMS = ['iss', 'sub', 'aud', 'exp', 'jti'];
/** How many accepted header segments (and endpoint aud lists) a verifier remembers; then it starts over. */
const MAX_CACHED_HEADERS = 1000;

const FAPI2_AUD_REFUSED = () =>
  oauthErrors.invalidClient('client_assertion aud must be the issuer, as a string (the FAPI 2.0 profile)');

/**
 * Before any key is looked up (or a jwks_uri fetched): a compact JWS of three segments whose header names
 * an alg of CLIENT_ASSERTION_SIGNING_ALGS. A header segment found acceptable once is remembered in
 * `accepted` and not decoded again.
 */
function checkAlg(assertion: string, accepted: Set<string>): void {
  const first = assertion.indexOf('.');
  const second = first < 0 ? -1 : assertion.indexOf('.', first + 1);
  const threeSegments = second > 0 && assertion.indexOf('.', second + 1) < 0;
  if (threeSegments && accepted.has(assertion.slice(0, first))) return;
  let alg: unknown;
  try {
    ({ alg } = decodeProtectedHeader(assertion));
  } catch {
    // answered below
  }
  if (typeof alg !== 'string' || !threeSegments)
    throw oauthErrors.invalidClient('client_assertion is not a signed JWT');
  if (!(CLIENT_ASSERTION_SIGNING_ALGS as readonly string[]).includes(alg)) {
    throw oauthErrors.invalidClient(
      `client_assertion must be signed with ${CLIENT_ASSERTION_SIGNING_ALGS.join(', ')}`,
    );
  }
  if (accepted.size >= MAX_CACHED_HEADERS) accepted.clear();
  accepted.add(assertion.slice(0, first));
}

/** jose's failures as invalid_client with the rule that failed; anything else passes through. */
function describe(err: unknown): unknown {
  const fail = oauthErrors.invalidClient;
  if (err instanceof joseErrors.JWTExpired) return fail('client_assertion has expired');
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    const claim = err.claim;
    if (claim === 'iss' || claim === 'sub') return fail(`client_assertion ${claim} must be the client_id`);
    if (claim === 'aud') return fail('client_assertion aud must be the issuer or the token endpoint URL');
    if (claim === 'nbf') return fail('client_assertion is not valid yet (nbf)');
    if (claim === 'iat') return fail('client_assertion iat is not valid');
    return fail(`client_assertion must carry a valid ${claim}`);
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey)
    return fail("no key of the client matches the client_assertion's kid");
  if (err instanceof joseErrors.JWKSMultipleMatchingKeys)
    return fail('client_assertion must name its key (kid): several keys of the client match');
  if (err instanceof joseErrors.JWSSignatureVerificationFailed)
    return fail('client_assertion signature is not valid');
  if (err instanceof joseErrors.JOSEAlgNotAllowed)
    return fail(`client_assertion must be signed with ${CLIENT_ASSERTION_SIGNING_ALGS.join(', ')}`);
  if (err instanceof joseErrors.JOSEError) return fail('client_assertion is not a valid JWT');
  return err;
}
