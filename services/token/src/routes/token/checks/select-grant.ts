import { tokenErrors } from '../errors';
import type { GrantHandler, TokenRequest } from '../token-request';

export const CIBA_GRANT_TYPE = 'urn:openid:params:grant-type:ciba';

/** Picks the handler of the request's grant_type. */
export function selectGrant(
  request: TokenRequest,
  handlers: Readonly<Record<string, GrantHandler>>,
): GrantHandler {
  const grantType = request.params.grant_type;
  if (grantType === undefined) throw tokenErrors.invalidRequest('grant_type is required');
  const handler = Object.hasOwn(handlers, grantType) ? handlers[grantType] : undefined;
  if (!handler) throw tokenErrors.unsupportedGrantType('grant_type is not supported');
  return handler;
}
