import { type ParamName, isParamName } from './param-names';

/**
 * /authorize parameters as the route hands them over: GET query and POST form merged, a string per name, an
 * array when a name is repeated. Typed loosely so express's parsed query (which may hold nested objects
 * for `a[b]=c`) can be passed as is.
 */
export type RawAuthorizeParams = Readonly<Record<string, unknown>>;

/** Parameters read once: each single value, and the names not given as one single string (refused later). */
export interface AuthorizeParams {
  values: Readonly<Partial<Record<ParamName, string>>>;
  repeated: ReadonlySet<ParamName>;
}

function single(value: unknown): string | undefined | typeof AMBIGUOUS {
  if (value === undefined || typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return value[0];
  return AMBIGUOUS;
}
const AMBIGUOUS = Symbol('ambiguous');

/**
 * Keeps the parameters of spec 4.2 and splits single values from repeated (or nested) names. Unknown
 * parameters are ignored and a parameter sent without a value counts as omitted (RFC 6749 §3.1), so
 * `prompt=` is the same as no prompt.
 */
export function readParams(raw: RawAuthorizeParams): AuthorizeParams {
  const values: Partial<Record<ParamName, string>> = {};
  const repeated = new Set<ParamName>();
  for (const [name, value] of Object.entries(raw)) {
    if (!isParamName(name)) continue;
    const one = single(value);
    if (one === AMBIGUOUS) repeated.add(name);
    else if (one !== undefined && one !== '') values[name] = one;
  }
  return { values, repeated };
}
