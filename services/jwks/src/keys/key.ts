/** A key pair's purpose, as published in its JWK `use`. */
export type KeyUse = 'sig' | 'enc';
export const keyUses: readonly KeyUse[] = ['sig', 'enc'];
export const algorithmOf = { sig: 'RS256', enc: 'RSA-OAEP-256' } as const satisfies Record<KeyUse, string>;

/** ID token signing algorithms; RS256 is the spec's key and the default (an app without a choice). */
export type SigningAlg = 'RS256' | 'PS256' | 'ES256';
export const signingAlgs: readonly SigningAlg[] = ['RS256', 'PS256', 'ES256'];

/**
 * A key slot: one (use, alg) with its own rotation. The generation counter stays per use (shared by the sig
 * algs), so the unique (use, generation) guard of every adapter is unchanged.
 */
export interface KeySlot {
  use: KeyUse;
  alg: string;
}
export const keySlots: readonly KeySlot[] = [
  ...signingAlgs.map((alg) => ({ use: 'sig' as const, alg })),
  { use: 'enc', alg: algorithmOf.enc },
];

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

/** The public part of an ES256 (P-256) key. */
export interface PublicEcJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export type PublicJwk = PublicRsaJwk | PublicEcJwk;

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
  publicJwk: PublicJwk;
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
