import { safeEqual, sha256 } from '@sesame/platform';

/**
 * Whether a presented secret is the one stored as `hash` (sha256), in constant time: with no stored hash (an
 * unknown, public or revoked party) the secret is still hashed and compared, against `decoy`, so the answer
 * takes the same time either way. An empty secret never matches.
 */
export function secretMatches(secret: string, hash: string | undefined, decoy: string): boolean {
  const matches = safeEqual(sha256(secret), hash ?? decoy);
  return matches && hash !== undefined && secret !== '';
}
