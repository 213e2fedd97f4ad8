import { createHash } from 'node:crypto';
import { OutgoingMessage, type ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';

/**
 * A static document's answer as bytes prepared once per body (discovery, /jwks): the body Buffer (written as
 * it is: node corks the socket for the response, so head and body leave in one writev, and the body is never
 * copied into a string per request), its strong ETag, and the whole header list of the 200 and of the 304 —
 * security, CORS, the route's own, ETag, Content-Length — as flat [name, value, …] arrays ending in the
 * X-Request-Id slot. A request only fills that slot and hands the array to writeHead,
 * which reads it synchronously; nothing else is built per request. Rebuilt whenever the body changes (a key
 * rotation, a new configuration): the route hands out a new Buffer, and a new Buffer gets a new answer.
 */
export interface PreparedAnswer {
  body: Buffer;
  etag: string;
  /** 200 headers; the last value is the request id slot. */
  ok: string[];
  /** 304 headers (no Content-Length: a 304 has no body); the last value is the request id slot. */
  notModified: string[];
  /** The same two header lists as node keeps a response's set headers (see writePreparedHead). */
  okFields: PreparedFields;
  notModifiedFields: PreparedFields;
}

/**
 * A header list as node's OutgoingMessage stores set headers: lower-case name → [name, value], a name given
 * more than once with its values in order (sent as one line each, as from the list).
 */
type PreparedFields = Record<string, [string, string | string[]]>;

/**
 * The symbol node keeps a response's set headers under (OutgoingMessage's kOutHeaders), found by its
 * description; undefined if a node version has no such field, and then writePreparedHead takes the list path.
 */
const outHeaders = Object.getOwnPropertySymbols(new OutgoingMessage()).find(
  (symbol) => symbol.description === 'kOutHeaders',
);

/** Whether writePreparedHead skips the per-request validation on this node (else it takes the list path). */
export const preparedHeadsSkipValidation = outHeaders !== undefined;

function fieldsOf(list: string[]): PreparedFields {
  const fields: PreparedFields = {};
  for (let i = 0; i < list.length; i += 2) {
    const [name, value] = [list[i]!, list[i + 1]!];
    const known = fields[name.toLowerCase()];
    if (known) known[1] = [known[1]].flat().concat(value);
    else fields[name.toLowerCase()] = [name, value];
  }
  return fields;
}

/** A strong validator of the body's bytes: a quoted SHA-256 prefix, base64url (RFC 9110 8.8.3). */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Validates a header list once, as writeHead or setHeader would validate it on every request. */
function validated(headers: string[]): string[] {
  for (let i = 0; i < headers.length; i += 2) {
    validateHeaderName(headers[i]!);
    validateHeaderValue(headers[i]!, headers[i + 1]!);
  }
  return headers;
}

export function prepareAnswer(body: Buffer, headers: string[]): PreparedAnswer {
  const etag = etagOf(body);
  validated(headers);
  const ok = [...headers, 'ETag', etag, 'Content-Length', String(body.length), 'X-Request-Id', ''];
  const notModified = [...headers, 'ETag', etag, 'X-Request-Id', ''];
  return {
    body,
    etag,
    ok,
    notModified,
    okFields: fieldsOf(ok),
    notModifiedFields: fieldsOf(notModified),
  };
}

/**
 * writeHead(status, list) with `requestId` in the list's last slot — the same head, byte for byte, without
 * validating every name and value again on every request (they were validated in prepareAnswer; the request
 * id is REQUEST_ID-shaped or a UUID). Node trusts the headers a response holds through setHeader, which
 * validated them when they were set: the prepared fields stand there for the one synchronous writeHead call
 * and are taken away after it, so the response holds no headers afterwards, as after writeHead(status, list).
 * That saves about a tenth of the CPU of a /jwks or discovery answer (docs/performance.md).
 */
export function writePreparedHead(
  res: ServerResponse,
  status: number,
  list: string[],
  fields: PreparedFields,
  requestId: string,
): void {
  list[list.length - 1] = requestId;
  fields['x-request-id']![1] = requestId;
  writeHeld(res, status, list, fields);
}

/** writeHead(status, list) through the validated fields when node has them (see writePreparedHead). */
function writeHeld(res: ServerResponse, status: number, list: string[], fields: PreparedFields): void {
  const holder = res as unknown as Record<symbol, unknown>;
  if (outHeaders === undefined || holder[outHeaders] !== null) {
    res.writeHead(status, list);
    return;
  }
  holder[outHeaders] = fields;
  try {
    res.writeHead(status);
  } finally {
    holder[outHeaders] = null;
  }
}

/**
 * The fixed headers of answers whose body is made per request (token's JSON endpoints: security headers and
 * no-store), validated once: the list ends in an X-Request-Id and a Content-Length slot, which
 * writePreparedJsonHead fills. Saves the per-request validation of every name and value, as for /jwks.
 */
export interface PreparedHead {
  list: string[];
  fields: PreparedFields;
}

export function prepareHead(headers: string[]): PreparedHead {
  const list = [...validated(headers), 'X-Request-Id', '', 'Content-Length', ''];
  return { list, fields: fieldsOf(list) };
}

/**
 * writeHead(status, [...headers, 'X-Request-Id', requestId, 'Content-Length', length]) for a prepared head, byte
 * for byte, without validating the fixed headers again. `requestId` is REQUEST_ID-shaped or a UUID (requestIdOf).
 */
export function writePreparedJsonHead(
  res: ServerResponse,
  status: number,
  head: PreparedHead,
  requestId: string,
  contentLength: number,
): void {
  const { list, fields } = head;
  const length = String(contentLength);
  list[list.length - 3] = requestId;
  list[list.length - 1] = length;
  fields['x-request-id']![1] = requestId;
  fields['content-length']![1] = length;
  writeHeld(res, status, list, fields);
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
