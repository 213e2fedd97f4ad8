import { isParamName } from '../../authorize/param-names';

/** Characters a plain query may hold as they are; anything else (raw non-ASCII, `#`, `[`, spaces) is not plain. */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~%+=&:/,*!'()@$;]*$/;
const PLAIN_NAME = /^[a-z_]{1,40}$/;
/** Far more than /authorize has parameters; express's query parser drops pairs past 1000. */
const MAX_PAIRS = 100;

/**
 * The authorization parameters of a request target (`/authorize?…`) when its query is plain: `name=value`
 * pairs separated by `&`, each name lower-case letters and underscores and given once, each value decoding as
 * express's query parser (qs) decodes it (`+` is a space, then percent-decoding). Names that are no
 * /authorize parameter are left out, as readParams leaves them out. Returns undefined for any other query, so
 * the caller hands the request to express, which reads it with qs and refuses what must be refused (a repeated
 * parameter, `a[b]=c`) exactly as before.
 */
export function readSimpleQuery(target: string): Record<string, string> | undefined {
  const start = target.indexOf('?');
  const query = start === -1 ? '' : target.slice(start + 1);
  if (!PLAIN_QUERY.test(query)) return undefined;
  const params: Record<string, string> = {};
  const seen: string[] = [];
  const pairs = query.split('&');
  if (pairs.length > MAX_PAIRS) return undefined;
  for (const pair of pairs) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (!PLAIN_NAME.test(name) || seen.includes(name)) return undefined;
    seen.push(name);
    if (!isParamName(name)) continue;
    const value = eq === -1 ? '' : decodeValue(pair.slice(eq + 1));
    if (value === undefined) return undefined;
    params[name] = value;
  }
  return params;
}

/** `+` is a space, then percent-decoding; undefined when undecodable. Most values need neither (ids, codes). */
function decodeValue(raw: string): string | undefined {
  const spaced = raw.includes('+') ? raw.replaceAll('+', ' ') : raw;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}
