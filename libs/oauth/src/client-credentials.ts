import { oauthErrors } from './errors';

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

export type ClientCredentials = SecretCredentials | PublicCredentials;

/** The body parameters client authentication reads; absent and empty are the same (callers drop empties). */
export interface CredentialParams {
  client_id?: string;
  client_secret?: string;
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
): SecretCredentials;
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
