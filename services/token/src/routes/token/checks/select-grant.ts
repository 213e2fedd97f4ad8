import { oauthErrors } from '@sesame/oauth';
import type { GrantHandler, TokenRequest } from '../token-request';

/** Picks the handler of the request's grant_type. */
export function selectGrant(
  request: TokenRequest,
  handlers: Readonly<Record<string, GrantHandler>>,
): GrantHandler {
  const grantType = request.params.grant_type;
  if (grantType === undefined) throw oauthErrors.invalidRequest('grant_type is required');
  const handler = Object.hasOwn(handlers, grantType) ? handlers[grantType] : undefined;
  if (!handler) throw oauthErrors.unsupportedGrantType('grant_type is not supported');
  return handler;
}
