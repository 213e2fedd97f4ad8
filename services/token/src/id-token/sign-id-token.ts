import { sign } from 'node:crypto';
import type { IdTokenAlg, KeyRing } from '../keys/key-ring';
import type { IdTokenClaims } from './claims';

/**
 * A compact JWS (RFC 7515 §7.1) with the ring's active key of the app's alg: RS256 (RSASSA-PKCS1-v1_5 with
 * SHA-256, RFC 7518 §3.3, the default), PS256 (RSASSA-PSS, §3.5) or ES256 (ECDSA P-256, §3.4, the signature
 * as R||S); `kid` in the header so RPs pick the key from /jwks.
 *
 * Signed with node:crypto's asynchronous sign (OpenSSL on the libuv thread pool) rather than jose's
 * SignJWT: jose signs through WebCrypto, which costs ~100-200 µs more CPU per RSA-2048 signature than
 * crypto.sign here (bench/token.bench.ts) — the difference between meeting and missing the
 * code-exchange throughput goal. The encoding is three base64url parts; tests verify every token with
 * jose's jwtVerify and openid-client against the published JWK set.
 */
export function signIdToken(
  ring: KeyRing,
  claims: IdTokenClaims,
  alg: IdTokenAlg = 'RS256',
): Promise<string> {
  const { signWith, encodedHeader } = ring.current(alg);
  const signingInput = `${encodedHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(signingInput), signWith, (err, signature) => {
      if (err) reject(err);
      else resolve(`${signingInput}.${signature.toString('base64url')}`);
    });
  });
}
