import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The Authorization scheme of interactive init (spec 4.9 and 5.4, decided in ARCHITECTURE §7; defined with a
 * worked example in docs/interactive-init.md):
 *
 *   Sesame AccessToken <access_token>; t=<timestamp>,n=<nonce>,s=<signature>
 *
 * The access token is the one the RP received from the user's code exchange. The signature is base64url (no
 * padding) of HMAC-SHA256 keyed by the app's client secret (its UTF-8 bytes) over the signing string
 * (interactiveSigningString): the method, the path, the timestamp, the nonce, the access token and the
 * SHA-256 of the body, so a captured header is good for one request, with that body, within the window, once.
 * Shared by mgmt (which checks it), the CLI (`npm run sesame -- interactive sign`) and the tests.
 */
export const INTERACTIVE_AUTH_SCHEME = 'Sesame';
/** The first line of every signing string (a new scheme would get a new word). */
export const INTERACTIVE_SIGNATURE_VERSION = 'SESAME-INTERACTIVE-V1';
/** How far a timestamp may be from the server's clock, either way (seconds). */
export const INTERACTIVE_SIGNATURE_WINDOW_S = 120;
/** The path the signature covers (mgmt's route). */
export const INTERACTIVE_INIT_PATH = '/api/v1/interactive/init';

/** What one interactive init request signs. */
export interface InteractiveRequest {
  method: string;
  path: string;
  /** Unix time in seconds. */
  timestamp: number;
  /** 16 to 64 base64url characters, new for every request. */
  nonce: string;
  accessToken: string;
  /** The request body exactly as sent (its bytes). */
  body: string | Uint8Array;
}

/**
 * The signed string: seven lines joined by "\n" (no trailing newline), each as UTF-8:
 * SESAME-INTERACTIVE-V1, the method in upper case, the path, the timestamp in decimal, the nonce, the access
 * token, and base64url (no padding) of SHA-256 over the body's bytes.
 */
export function interactiveSigningString(r: InteractiveRequest): string {
  return [
    INTERACTIVE_SIGNATURE_VERSION,
    r.method.toUpperCase(),
    r.path,
    String(r.timestamp),
    r.nonce,
    r.accessToken,
    createHash('sha256').update(r.body).digest('base64url'),
  ].join('\n');
}

export function interactiveSignature(r: InteractiveRequest, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(interactiveSigningString(r), 'utf8').digest('base64url');
}

/** A fresh nonce: 128 random bits, base64url. */
export const interactiveNonce = (): string => randomBytes(16).toString('base64url');

/** The header value an RP sends; timestamp (now) and nonce (fresh) are filled in when not given. */
export function interactiveAuthorization(
  r: Omit<InteractiveRequest, 'timestamp' | 'nonce' | 'method' | 'path'> &
    Partial<Pick<InteractiveRequest, 'timestamp' | 'nonce' | 'method' | 'path'>>,
  clientSecret: string,
): string {
  const full: InteractiveRequest = {
    method: r.method ?? 'POST',
    path: r.path ?? INTERACTIVE_INIT_PATH,
    timestamp: r.timestamp ?? Math.floor(Date.now() / 1000),
    nonce: r.nonce ?? interactiveNonce(),
    accessToken: r.accessToken,
    body: r.body,
  };
  return `${INTERACTIVE_AUTH_SCHEME} AccessToken ${full.accessToken}; t=${full.timestamp},n=${full.nonce},s=${interactiveSignature(full, clientSecret)}`;
}

// The scheme word is case-insensitive (RFC 9110 §11.1); everything after it is exact: one space, the word
// AccessToken, one space, a b64token (RFC 6750 §2.1), a semicolon, one space, then t=, n= and s= in that
// order, separated by commas: a 10-digit timestamp, a 16-64 character base64url nonce, 43 base64url characters.
const HEADER =
  /^Sesame AccessToken ([A-Za-z0-9\-._~+/]+=*); t=(\d{10}),n=([A-Za-z0-9_-]{16,64}),s=([A-Za-z0-9_-]{43})$/i;

/** The parts of a well-formed header, or undefined. */
export function parseInteractiveAuthorization(
  header: string | undefined,
): { accessToken: string; timestamp: number; nonce: string; signature: string } | undefined {
  const match = header ? HEADER.exec(header) : null;
  // The flag makes the whole pattern case-insensitive; only the scheme word may differ in case.
  if (!match || !/^.{7}AccessToken [^;]+; t=\d+,n=[^,]+,s=/.test(header!)) return undefined;
  return { accessToken: match[1]!, timestamp: Number(match[2]), nonce: match[3]!, signature: match[4]! };
}
