// Test support only: a DPoP key pair (RFC 9449) that signs proofs for token's endpoints.
import { randomUUID } from 'node:crypto';
import { sha256 } from '@sesame/platform';
import { type CryptoKey, type JWK, SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';

export interface DpopKey {
  jkt: string;
  /** A proof for `htm` `htu` at `nowMs` (iat), with ath for `accessToken`, and any claim replaced by `claims`. */
  proof(
    htm: string,
    htu: string,
    nowMs: number,
    opts?: { accessToken?: string; claims?: Record<string, unknown> },
  ): Promise<string>;
}

export async function dpopKey(alg: 'ES256' | 'PS256' | 'EdDSA' = 'ES256'): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk: JWK = await exportJWK(publicKey);
  return {
    jkt: await calculateJwkThumbprint(jwk, 'sha256'),
    proof: (htm, htu, nowMs, opts = {}) => sign(privateKey, alg, jwk, htm, htu, nowMs, opts),
  };
}

function sign(
  key: CryptoKey,
  alg: string,
  jwk: JWK,
  htm: string,
  htu: string,
  nowMs: number,
  opts: { accessToken?: string; claims?: Record<string, unknown> },
): Promise<string> {
  return new SignJWT({
    jti: randomUUID(),
    htm,
    htu,
    iat: Math.floor(nowMs / 1000),
    ...(opts.accessToken ? { ath: sha256(opts.accessToken) } : {}),
    ...opts.claims,
  })
    .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
    .sign(key);
}
