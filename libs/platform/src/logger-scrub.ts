/**
 * Secrets that travel inside URLs: the magic link's, the registration link's, the CIBA and enrollment links'
 * tokens are path segments (`/link/<token>`), a query may carry `code=` or `token=`, and an authority may
 * carry credentials (`https://user:key@host`, a collector's or a store's). A log line keeps the route's shape
 * (`/link/[redacted]`) and loses the secret. Ids (UUIDs) stay: they are how logs are read.
 */

/** A path segment or query value this long, of base64url characters, is taken for a token. */
const TOKEN_LIKE = /^[A-Za-z0-9_-]{20,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Query parameters whose value is a secret whatever its length (an emailed code has six digits). */
const SECRET_PARAM = /code|token|secret|password|otp|key|sig|link|ticket|auth_req_id|state|nonce/i;

export const REDACTED = '[redacted]';

const secretSegment = (s: string) => TOKEN_LIKE.test(s) && !UUID.test(s);

function scrubSegments(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {}
      return secretSegment(decoded) ? REDACTED : segment;
    })
    .join('/');
}

function scrubQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      return SECRET_PARAM.test(name) || secretSegment(value) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** One URL or path with its token-like segments and secret query values replaced. */
export function scrubUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const hash = hashAt >= 0 ? `#${REDACTED}` : '';
  const queryAt = withoutHash.indexOf('?');
  const path = queryAt >= 0 ? withoutHash.slice(0, queryAt) : withoutHash;
  const query = queryAt >= 0 ? `?${scrubQuery(withoutHash.slice(queryAt + 1))}` : '';
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path)?.[0] ?? '';
  // Credentials in the authority (`https://user:key@collector`) are a secret as a whole.
  const authority = scheme.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, `$1${REDACTED}@`);
  return `${authority}${scrubSegments(path.slice(scheme.length))}${query}${hash}`;
}

/** Every URL or absolute path inside free text (an error message, a stack, a message string) scrubbed. */
export function scrubText(text: string): string {
  return text.replace(/(?:[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+|(?<![\w.])\/[^\s"'<>()]+)/gi, (m) =>
    scrubUrl(m),
  );
}

/** Fields that hold a URL or a path: their values are scrubbed wherever they appear in a log object. */
const URL_FIELDS = new Set([
  'path',
  'url',
  'uri',
  'href',
  'location',
  'originalUrl',
  'redirect',
  'redirectUri',
  'redirect_uri',
  'returnTo',
  'endpoint',
  'referer',
  'referrer',
]);

/** The log object with URL fields scrubbed, down to the second level (`req.url`); other values untouched. */
export function scrubLogObject(obj: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(obj)) {
    let next = value;
    if (typeof value === 'string' && URL_FIELDS.has(key)) next = scrubUrl(value);
    else if (
      depth < 1 &&
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      !(value instanceof Error)
    )
      next = scrubLogObject(value as Record<string, unknown>, depth + 1);
    if (next !== value) {
      out ??= { ...obj };
      out[key] = next;
    }
  }
  return out ?? obj;
}

/** Error fields that quote what a peer was sent (nodemailer's SMTP `response` and `command`, a body). */
const ECHO_FIELDS = ['response', 'command', 'body', 'data', 'config', 'request'];

/**
 * pino's error serializer, then: the message and stack with URLs scrubbed, and the fields in which clients
 * quote their peer's answer dropped (an SMTP relay's refusal can repeat the subject, so the code).
 */
export function scrubError(serialized: unknown): unknown {
  if (typeof serialized === 'string') return scrubText(serialized);
  if (!serialized || typeof serialized !== 'object') return serialized;
  const out: Record<string, unknown> = { ...(serialized as Record<string, unknown>) };
  for (const field of ECHO_FIELDS) delete out[field];
  // `code` is a redacted field (an OAuth or emailed code); a system error's code (ECONNREFUSED) is kept apart
  if (typeof out.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(out.code)) out.errorCode = out.code;
  if (typeof out.message === 'string') out.message = scrubText(out.message);
  if (typeof out.stack === 'string') out.stack = scrubText(out.stack);
  return out;
}
