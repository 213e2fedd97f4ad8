import { type ClientCredentials, readClientCredentials as readCredentials } from '@sesame/oauth';
import type { TokenRequest } from '../token-request';

export type { ClientCredentials };

/**
 * How the client identifies itself at /token (@sesame/oauth readClientCredentials): Basic, body secret, or
 * client_id alone (`none`: a public client, or a code exchange proven by PKCE).
 */
export function readClientCredentials(request: TokenRequest): ClientCredentials {
  return readCredentials(request.authorization, request.params, { allowNone: true });
}
