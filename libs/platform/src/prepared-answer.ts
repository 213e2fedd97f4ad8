import { createHash } from 'node:crypto';

/**
 * A static document's answer as bytes prepared once per body (discovery, /jwks): the body as a latin1 string
 * (node writes it byte for byte in the same write as the head), its strong ETag, and the whole header list of
 * the 200 and of the 304 — security, CORS, the route's own, ETag, Content-Length — as flat [name, value, …]
 * arrays ending in the X-Request-Id slot. A request only fills that slot and hands the array to writeHead,
 * which reads it synchronously; nothing else is built per request. Rebuilt whenever the body changes (a key
 * rotation, a new configuration): the route hands out a new Buffer, and a new Buffer gets a new answer.
 */
export interface PreparedAnswer {
  body: Buffer;
  /** The body, one latin1 character per byte. */
  text: string;
  etag: string;
  /** 200 headers; the last value is the request id slot. */
  ok: string[];
  /** 304 headers (no Content-Length: a 304 has no body); the last value is the request id slot. */
  notModified: string[];
}

/** A strong validator of the body's bytes: a quoted SHA-256 prefix, base64url (RFC 9110 8.8.3). */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

export function prepareAnswer(body: Buffer, headers: string[]): PreparedAnswer {
  const etag = etagOf(body);
  return {
    body,
    text: body.toString('latin1'),
    etag,
    ok: [...headers, 'ETag', etag, 'Content-Length', String(body.length), 'X-Request-Id', ''],
    notModified: [...headers, 'ETag', etag, 'X-Request-Id', ''],
  };
}

/**
 * Whether an If-None-Match header matches `etag` (RFC 9110 13.1.2: "*", or a list of entity tags compared
 * weakly, so W/"x" matches "x").
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}
