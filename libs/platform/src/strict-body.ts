import express, { type RequestHandler } from 'express';

/**
 * A request body that cannot be read as what it claims to be: a broken percent-escape (`%zz`, a cut `%E0%A4`),
 * bytes that are not UTF-8, a multipart body without its boundary. `status` 400 and `expose` as body-parser's
 * own errors carry them, so every service's error middleware answers it as the 400 it already gives a
 * malformed body, never a 500.
 */
export class MalformedBodyError extends Error {
  readonly status = 400;
  readonly statusCode = 400;
  readonly expose = true;
  readonly type = 'entity.malformed';
  constructor(message = 'malformed request body') {
    super(message);
    this.name = 'MalformedBodyError';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text; MalformedBodyError when they are not UTF-8. */
export function strictUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new MalformedBodyError('request body is not UTF-8');
  }
}

/**
 * Whether an application/x-www-form-urlencoded text is well formed: every `%` starts an escape of two hex
 * digits and the escapes decode to UTF-8 (URLSearchParams and querystring would silently keep `%zz` or turn
 * a cut sequence into U+FFFD, which would then be stored).
 */
export function wellFormedUrlencoded(text: string): boolean {
  // Without a `%` there is no escape to break: the text is what it says (the common /token body).
  if (!text.includes('%')) return true;
  for (const part of text.split('&')) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return false;
    }
  }
  return true;
}

/** Throws MalformedBodyError unless `bytes` are a well-formed urlencoded form in UTF-8. */
export function checkUrlencoded(bytes: Uint8Array): void {
  if (!wellFormedUrlencoded(strictUtf8(bytes))) throw new MalformedBodyError('malformed percent-encoding');
}

/**
 * express.urlencoded (flat fields) that refuses a broken percent-encoding or non-UTF-8 bytes with a 400
 * (MalformedBodyError through the error middleware) instead of storing mangled text.
 */
export function strictUrlencoded(limit: string): RequestHandler {
  return express.urlencoded({
    extended: false,
    limit,
    verify: (_req, _res, buf) => checkUrlencoded(buf),
  });
}

/** express.json that refuses bytes that are not UTF-8 with a 400 (body-parser would read them as U+FFFD). */
export function strictJson(limit: string): RequestHandler {
  return express.json({ limit, verify: (_req, _res, buf) => void strictUtf8(buf) });
}
