import { oauthErrors } from '@sesame/oauth';
import type { TokenRequest } from '../token-request';

/** The parameters /token reads: the only names an error description may repeat (never the caller's own). */
const KNOWN = new Set([
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'client_secret',
  'scope',
  'auth_req_id',
  'refresh_token',
  'token',
  'token_type_hint',
]);

/** Parses the form body; a parameter sent twice is refused (RFC 6749 §3.2), empty values count as absent. */
export function readFormParams(
  body: unknown,
  authorization: string | undefined,
  clientIp = '',
): TokenRequest {
  const form = new URLSearchParams(typeof body === 'string' ? body : '');
  const params: Record<string, string> = {};
  for (const [name, value] of form) {
    if (Object.hasOwn(params, name))
      throw oauthErrors.invalidRequest(
        KNOWN.has(name)
          ? `parameter ${name} is included more than once`
          : 'a parameter is included more than once',
      );
    params[name] = value;
  }
  for (const name of Object.keys(params)) if (params[name] === '') delete params[name];
  return { params, authorization, clientIp };
}

export function requireParam(request: TokenRequest, name: string): string {
  const value = request.params[name];
  if (value === undefined) throw oauthErrors.invalidRequest(`${name} is required`);
  return value;
}
