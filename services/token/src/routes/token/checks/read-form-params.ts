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
  // U+FFFD in the text is what bytes that are not UTF-8 became when the body was read.
  if (text.includes('\ufffd')) throw notWellFormed();
  // Every pair is read (and a broken escape refused) before any repeat is: a body with both is not well-formed.
  const pairs = SURROGATE.test(text) ? urlSearchParamsPairs(text) : splitPairs(text);
  const params: Record<string, string> = {};
  for (const [name, value] of pairs) {
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

const notWellFormed = () =>
  oauthErrors.invalidRequest('the form body is not well-formed application/x-www-form-urlencoded');

/**
 * A UTF-16 surrogate: URLSearchParams turns a lone one into U+FFFD, so a text with one (or with a character
 * beyond the BMP, which is rare in a form) is read by URLSearchParams itself.
 */
const SURROGATE = /[\uD800-\uDFFF]/;
const ESCAPED = /[%+]/;
const PLUS = /\+/g;

/** URLSearchParams' pairs, once the text is known well-formed: it would keep `%zz` and make a cut UTF-8 escape U+FFFD. */
function urlSearchParamsPairs(text: string): Iterable<[string, string]> {
  if (!wellFormedUrlencoded(text)) throw notWellFormed();
  return new URLSearchParams(text);
}

/**
 * The pairs as URLSearchParams reads a text without surrogates (the text between the `&`s, cut at its first
 * `=`, `+` a space, the escapes UTF-8), without its iterator and byte decoder: about a third of the cost. Each
 * side with an escape is decoded once, by decodeURIComponent, which throws on exactly what
 * wellFormedUrlencoded refuses (a `%` without two hex digits, an escape that is not UTF-8): no escape spans a
 * literal `=` or `&`, so a side is broken if and only if its part is.
 */
function splitPairs(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  try {
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf('&', start);
      if (end === -1) end = text.length;
      if (end > start) {
        const eq = text.indexOf('=', start);
        if (eq === -1 || eq > end) pairs.push([decoded(text.slice(start, end)), '']);
        else pairs.push([decoded(text.slice(start, eq)), decoded(text.slice(eq + 1, end))]);
      }
      start = end + 1;
    }
  } catch (err) {
    if (err instanceof URIError) throw notWellFormed();
    throw err;
  }
  return pairs;
}

/** One side of a pair as URLSearchParams reads it: `+` is a space, then the percent-escapes as UTF-8. */
const decoded = (side: string) => (ESCAPED.test(side) ? decodeURIComponent(side.replace(PLUS, ' ')) : side);

export function requireParam(request: TokenRequest, name: string): string {
  const value = request.params[name];
  if (value === undefined) throw oauthErrors.invalidRequest(`${name} is required`);
  return value;
}
