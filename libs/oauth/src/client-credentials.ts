import { oauthErrors } from './errors';
import { type DecodedPayload, claimsOf } from './jwt-claims';
import { JWT_BEARER_ASSERTION_TYPE } from './vocabulary';

export interface SecretCredentials {
  method: 'client_secret_basic' | 'client_secret_post';
  clientId: string;
  clientSecret: string;
}

/** A client that names itself without a secret (public client, or a code exchange proven by PKCE). */
export interface PublicCredentials {
  method: 'none';
  clientId: string;
}

/** private_key_jwt: a JWT signed with one of the client's keys, not yet verified. */
export interface AssertionCredentials {
  method: 'private_key_jwt';
  clientId: string;
  assertion: string;
  /** The assertion's payload as decoded here for its sub (its signature and claims are checked later). */
  decoded?: DecodedPayload;
}

export type ClientCredentials = SecretCredentials | PublicCredentials | AssertionCredentials;

/** The body parameters client authentication reads; absent and empty are the same (callers drop empties). */
export interface CredentialParams {
  client_id?: string;
  client_secret?: string;
  client_assertion?: string;
  client_assertion_type?: string;
}

export interface ReadCredentialsOptions {
  /**
   * true: a client_id without a secret is `none` (/token: public clients and the PKCE code exchange).
   * false: every client must present its secret, so a missing one is invalid_client (/authorize_ciba).
   */
  allowNone: boolean;
}

/**
 * How the client identifies itself: HTTP Basic (RFC 6749 §2.3.1, id and secret form-urlencoded inside the
 * base64), client_id + client_secret in the body, or, where `allowNone`, client_id alone. Exactly one method
 * per request: Basic together with a body secret is refused, and so is a body client_id other than Basic's.
 */
export function readClientCredentials(
  authorization: string | undefined,
  body: CredentialParams,
  options: { allowNone: true },
): ClientCredentials;
export function readClientCredentials(
  authorization: string | undefined,
  body: CredentialParams,
  options: { allowNone: false },
): SecretCredentials | AssertionCredentials;
export function readClientCredentials(
  authorization: string | undefined,
  body: CredentialParams,
  options: ReadCredentialsOptions,
): ClientCredentials;
export function readClientCredentials(
  authorization: string | undefined,
  body: CredentialParams,
  options: ReadCredentialsOptions,
): ClientCredentials {
  const { client_id: bodyId, client_secret: bodySecret } = body;
  if (body.client_assertion !== undefined || body.client_assertion_type !== undefined) {
    return readAssertion(authorization, body);
  }
  if (authorization !== undefined) {
    const basic = parseBasic(authorization);
    if (bodySecret !== undefined) {
      throw oauthErrors.invalidRequest(
        'client authenticated with both client_secret_basic and client_secret_post',
      );
    }
    if (bodyId !== undefined && bodyId !== basic.clientId) {
      throw oauthErrors.invalidRequest(
        'client_id in the body differs from the one in the Authorization header',
      );
    }
    return { method: 'client_secret_basic', ...basic };
  }
  if (!bodyId) throw oauthErrors.invalidClient('client authentication failed');
  if (bodySecret) return { method: 'client_secret_post', clientId: bodyId, clientSecret: bodySecret };
  if (!options.allowNone) throw oauthErrors.invalidClient('client authentication failed');
  return { method: 'none', clientId: bodyId };
}

/** `Basic base64(form-encoded id ":" form-encoded secret)`; anything else is invalid_client. */
function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match?.[1]) throw oauthErrors.invalidClient('unsupported or malformed Authorization header');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw oauthErrors.invalidClient('malformed Basic credentials');
  try {
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    if (!clientId || !clientSecret) throw oauthErrors.invalidClient('malformed Basic credentials');
    return { clientId, clientSecret };
  } catch (err) {
    if (err instanceof URIError) throw oauthErrors.invalidClient('malformed Basic credentials');
    throw err;
  }
}

const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));

/**
 * RFC 7521 §4.2 / RFC 7523 §2.2: client_assertion with its type; the client is the assertion's sub (checked
 * against iss and its keys later). One method per request: no Basic header or secret beside it, and a body
 * client_id, when sent, must be the same client.
 */
function readAssertion(authorization: string | undefined, body: CredentialParams): AssertionCredentials {
  const { client_assertion: assertion, client_assertion_type: type, client_id: bodyId } = body;
  if (authorization !== undefined || body.client_secret !== undefined) {
    throw oauthErrors.invalidRequest('client authenticated with more than one method');
  }
  if (!assertion) throw oauthErrors.invalidRequest('client_assertion is required with client_assertion_type');
  if (type !== JWT_BEARER_ASSERTION_TYPE) {
    throw oauthErrors.invalidRequest(`client_assertion_type must be ${JWT_BEARER_ASSERTION_TYPE}`);
  }
  const segments = assertion.split('.');
  let decoded: DecodedPayload;
  try {
    if (segments.length !== 3) throw new Error('not three segments');
    decoded = { segment: segments[1]!, claims: claimsOf(segments[1]!) };
  } catch {
    throw oauthErrors.invalidClient('client_assertion is not a valid JWT');
  }
  const { sub } = decoded.claims;
  if (typeof sub !== 'string' || !sub) throw oauthErrors.invalidClient('client_assertion must carry sub');
  if (bodyId !== undefined && bodyId !== sub) {
    throw oauthErrors.invalidClient('client_assertion sub must be the client_id');
  }
  return { method: 'private_key_jwt', clientId: sub, assertion, decoded };
}
