import * as crypto from 'node:crypto';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** Injected so tests control time. */
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** An unguessable secret: 32 random bytes (256 bits), base64url. */
export const newSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');
export const newId = (): string => randomUUID();

// crypto.hash (node >= 20.12) hashes in one call without a Hash object: about half the CPU of createHash
// for the short strings hashed on every /token request. Read from the namespace: node 20.10 lacks it.
const oneShot = (crypto as Partial<Pick<typeof crypto, 'hash'>>).hash;

/** Secrets are stored and looked up by this hash, never by their value. */
export const sha256: (value: string) => string = oneShot
  ? (value) => oneShot('sha256', value, 'base64url')
  : (value) => createHash('sha256').update(value).digest('base64url');

/** The SHA-256 of `data` as bytes, in one call where node has it (as sha256). */
export const sha256Bytes: (data: string | Uint8Array) => Buffer = oneShot
  ? (data) => oneShot('sha256', data, 'buffer') as unknown as Buffer
  : (data) => createHash('sha256').update(data).digest();

/** Constant-time comparison of two strings (lengths compared via their hashes so length does not leak). */
export function safeEqual(a: string, b: string): boolean {
  const ha = sha256Bytes(a);
  const hb = sha256Bytes(b);
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
