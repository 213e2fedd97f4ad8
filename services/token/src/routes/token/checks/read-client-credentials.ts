import { tokenErrors } from '../errors';
import type { TokenRequest } from '../token-request';

export type ClientCredentials =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; clientSecret: string }
  | { method: 'none'; clientId: string };

/**
 * How the client identifies itself: HTTP Basic (RFC 6749 §2.3.1, id and secret form-urlencoded inside the
 * base64), client_id + client_secret in the body, or client_id alone (public client). Exactly one method
 * per request: Basic together with a body secret is refused.
 */
export function readClientCredentials(request: TokenRequest): ClientCredentials {
  const { client_id: bodyId, client_secret: bodySecret } = request.params;
  if (request.authorization !== undefined) {
    const basic = parseBasic(request.authorization);
    if (bodySecret !== undefined) {
      throw tokenErrors.invalidRequest(
        'client authenticated with both client_secret_basic and client_secret_post',
      );
    }
    if (bodyId !== undefined && bodyId !== basic.clientId) {
      throw tokenErrors.invalidRequest(
        'client_id in the body differs from the one in the Authorization header',
      );
    }
    return { method: 'client_secret_basic', ...basic };
  }
  if (bodyId === undefined) throw tokenErrors.invalidClient('client authentication failed');
  if (bodySecret !== undefined)
    return { method: 'client_secret_post', clientId: bodyId, clientSecret: bodySecret };
  return { method: 'none', clientId: bodyId };
}

function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match?.[1]) throw tokenErrors.invalidClient('unsupported or malformed Authorization header');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw tokenErrors.invalidClient('malformed Basic credentials');
  try {
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    if (!clientId || !clientSecret) throw tokenErrors.invalidClient('malformed Basic credentials');
    return { clientId, clientSecret };
  } catch (err) {
    if (err instanceof URIError) throw tokenErrors.invalidClient('malformed Basic credentials');
    throw err;
  }
}

const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
