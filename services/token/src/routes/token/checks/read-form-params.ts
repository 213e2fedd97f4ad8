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
  if (isPlainForm(text)) {
    // No escape and no `+`: the pairs are the text between the `&`s, cut at their first `=` (what
    // URLSearchParams does with such a text, without its iterator and decoding: a third of the cost).
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf('&', start);
      if (end === -1) end = text.length;
      if (end > start) {
        const eq = text.indexOf('=', start);
        if (eq === -1 || eq > end) addParam(params, text.slice(start, end), '');
        else addParam(params, text.slice(start, eq), text.slice(eq + 1, end));
      }
      start = end + 1;
    }
  } else {
    for (const [name, value] of new URLSearchParams(text)) addParam(params, name, value);
  }
  for (const name of Object.keys(params)) if (params[name] === '') delete params[name];
  return { params, authorization, clientIp };
}

/**
 * A text whose pairs need no decoding: no `%`, no `+`, and no UTF-16 surrogate (URLSearchParams turns a lone
 * one into U+FFFD; a text with a character beyond the BMP simply takes the general way).
 */
const isPlainForm = (text: string) => !text.includes('%') && !text.includes('+') && !SURROGATE.test(text);
const SURROGATE = /[\uD800-\uDFFF]/;

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
