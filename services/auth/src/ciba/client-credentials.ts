import { cibaErrors } from './ciba-errors';

export interface ClientCredentials {
  method: 'client_secret_basic' | 'client_secret_post';
  clientId: string;
  clientSecret: string;
}

const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));

/**
 * How a CIBA client authenticates (spec 4.3: client_id and client_secret): HTTP Basic (RFC 6749 §2.3.1, id
 * and secret form-urlencoded inside the base64) or both in the body. Exactly one method: Basic together with
 * a body secret is refused, and a client without a secret is no CIBA client (invalid_client).
 */
export function readClientCredentials(
  authorization: string | undefined,
  body: { client_id?: string; client_secret?: string },
): ClientCredentials {
  if (authorization !== undefined) {
    if (body.client_secret !== undefined) {
      throw cibaErrors.invalidRequest(
        'client authenticated with both client_secret_basic and client_secret_post',
      );
    }
    const basic = parseBasic(authorization);
    if (body.client_id !== undefined && body.client_id !== basic.clientId) {
      throw cibaErrors.invalidRequest(
        'client_id in the body differs from the one in the Authorization header',
      );
    }
    return { method: 'client_secret_basic', ...basic };
  }
  if (!body.client_id || !body.client_secret) throw cibaErrors.invalidClient('client authentication failed');
  return { method: 'client_secret_post', clientId: body.client_id, clientSecret: body.client_secret };
}

function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match?.[1]) throw cibaErrors.invalidClient('unsupported or malformed Authorization header');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  try {
    const clientId = colon < 0 ? '' : formDecode(decoded.slice(0, colon));
    const clientSecret = colon < 0 ? '' : formDecode(decoded.slice(colon + 1));
    if (!clientId || !clientSecret) throw cibaErrors.invalidClient('malformed Basic credentials');
    return { clientId, clientSecret };
  } catch (err) {
    if (err instanceof URIError) throw cibaErrors.invalidClient('malformed Basic credentials');
    throw err;
  }
}
