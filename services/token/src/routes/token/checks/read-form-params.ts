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
  const params: Record<string, string> = {};
  if (SURROGATE.test(text)) {
    for (const [name, value] of new URLSearchParams(text)) addParam(params, name, value);
  } else {
    // The pairs are the text between the `&`s, cut at their first `=`, a side with an escape or a `+`
    // decoded: what URLSearchParams does with a well-formed text (checked above, so decodeURIComponent cannot
    // throw and reads the same UTF-8), without its iterator and byte decoder (about a third of the cost).
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf('&', start);
      if (end === -1) end = text.length;
      if (end > start) {
        const eq = text.indexOf('=', start);
        if (eq === -1 || eq > end) addParam(params, decoded(text.slice(start, end)), '');
        else addParam(params, decoded(text.slice(start, eq)), decoded(text.slice(eq + 1, end)));
      }
      start = end + 1;
    }
  }
  for (const name of Object.keys(params)) if (params[name] === '') delete params[name];
  return { params, authorization, clientIp };
}

/**
 * A UTF-16 surrogate: URLSearchParams turns a lone one into U+FFFD, so a text with one (or with a character
 * beyond the BMP, which is rare in a form) takes URLSearchParams itself.
 */
const SURROGATE = /[\uD800-\uDFFF]/;
const ESCAPED = /[%+]/;
const PLUS = /\+/g;

/** One side of a pair as URLSearchParams reads it: `+` is a space, then the percent-escapes as UTF-8. */
const decoded = (side: string) => (ESCAPED.test(side) ? decodeURIComponent(side.replace(PLUS, ' ')) : side);

/** One parameter; a name sent twice is refused. */
function addParam(params: Record<string, string>, name: string, value: string): void {
  if (Object.hasOwn(params, name))
    throw oauthErrors.invalidRequest(
      KNOWN.has(name)
        ? `parameter ${name} is included more than once`
        : 'a parameter is included more than once',
    );
  params[name] = value;
}

export function requireParam(request: TokenRequest, name: string): string {
  const value = request.params[name];
  if (value === undefined) throw oauthErrors.invalidRequest(`${name} is required`);
  return value;
}
