import { SignJWT } from 'jose';
import type { KeyRing } from '../keys/key-ring';
import type { IdTokenClaims } from './claims';

/** Signs RS256 with the ring's active key; the header names it (`kid`) so RPs pick it from /jwks. */
export function signIdToken(ring: KeyRing, claims: IdTokenClaims): Promise<string> {
  const { kid, key } = ring.current();
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
}
