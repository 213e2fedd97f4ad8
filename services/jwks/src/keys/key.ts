/** A key pair's purpose, as published in its JWK `use`. */
export type KeyUse = 'sig' | 'enc';
export const keyUses: readonly KeyUse[] = ['sig', 'enc'];
export const algorithmOf = { sig: 'RS256', enc: 'RSA-OAEP-256' } as const satisfies Record<KeyUse, string>;

/**
 * pending: published in /jwks, not used yet. active: signs (sig) / is the preferred enc key.
 * retired: no longer used, still published until retireAfter (every token it signed has expired).
 */
export type KeyStatus = 'pending' | 'active' | 'retired';

export interface PublicRsaJwk {
  kty: 'RSA';
  n: string;
  e: string;
}

/** A private key sealed with AES-256-GCM under the key-encryption key (all base64url). */
export interface SealedPrivateKey {
  iv: string;
  tag: string;
  ciphertext: string;
  /** First bytes of sha256(KEK): says which key-encryption key sealed it, never the key itself. */
  kekId: string;
}

/** A key pair as stored: the private part only ever sealed. Times are epoch ms. */
export interface StoredKey {
  kid: string;
  use: KeyUse;
  alg: string;
  /** 1, 2, 3, ... per use; unique per use, so two pods creating "the next key" at once collide. */
  generation: number;
  publicJwk: PublicRsaJwk;
  /** Base64 DER certificates, the key's own first (RFC 7517 §4.7). */
  x5c: string[];
  privateKeyEnc: SealedPrivateKey;
  status: KeyStatus;
  createdAt: number;
  activatedAt?: number;
  retiredAt?: number;
  retireAfter?: number;
}

export interface KeyTimings {
  /** 0 disables scheduled rotation. */
  rotationIntervalMs: number;
  publishDelayMs: number;
  /** From retirement until the key leaves /jwks: max token lifetime + margin. */
  retireAfterMs: number;
}
