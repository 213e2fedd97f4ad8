import { sign } from 'node:crypto';
import type { KeyRing } from '../keys/key-ring';
import type { IdTokenClaims } from './claims';

/**
 * A compact JWS (RFC 7515 §7.1), RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) with the ring's
 * active key, `kid` in the header so RPs pick the key from /jwks.
 *
 * Signed with node:crypto's asynchronous sign (OpenSSL on the libuv thread pool) rather than jose's
 * SignJWT: jose signs through WebCrypto, which costs ~100-200 µs more CPU per RSA-2048 signature than
 * crypto.sign here (bench/token.bench.ts) — the difference between meeting and missing the
 * code-exchange throughput goal. The encoding is three base64url parts; tests verify every token with
 * jose's jwtVerify and openid-client against the published JWK set.
 */
export function signIdToken(ring: KeyRing, claims: IdTokenClaims): Promise<string> {
  const { key, encodedHeader } = ring.current();
  const signingInput = `${encodedHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(signingInput), key, (err, signature) => {
      if (err) reject(err);
      else resolve(`${signingInput}.${signature.toString('base64url')}`);
    });
  });
}
