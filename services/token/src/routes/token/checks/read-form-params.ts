import { oauthErrors } from '@sesame/oauth';
import { wellFormedUrlencoded } from '@sesame/platform';
import type { TokenRequest } from '../token-request';

/** The parameters /token reads: the only names an error description may repeat (never the caller's own). */
const KNOWN = new Set([
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'client_secret',
  'client_assertion',
  'client_assertion_type',
  'scope',
  'auth_req_id',
  'refresh_token',
  'token',
  'token_type_hint',
]);

/** Parses the form body (a broken percent-encoding is invalid_request); a parameter sent twice is refused (RFC 6749 §3.2), empty values count as absent. */
export function readFormParams(
  body: unknown,
  authorization: string | undefined,
  clientIp = '',
): TokenRequest {
  const text = typeof body === 'string' ? body : '';
  // URLSearchParams would keep `%zz` as is and turn a cut UTF-8 escape into U+FFFD; U+FFFD in the text is
  // what bytes that are not UTF-8 became when the body was read.
  if (!wellFormedUrlencoded(text) || text.includes('\ufffd'))
    throw oauthErrors.invalidRequest('the form body is not well-formed application/x-www-form-urlencoded');
  const form = new URLSearchParams(text);
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
