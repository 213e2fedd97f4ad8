import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SealedPrivateKey } from './key';

/** The key-encryption key (KEK): AES-256-GCM over private keys at rest, bound to their kid. */
export interface KeyEncryptionKey {
  seal(kid: string, privateKeyPem: string): SealedPrivateKey;
  open(kid: string, sealed: SealedPrivateKey): string;
}

export function createKeyEncryptionKey(key: Buffer): KeyEncryptionKey {
  if (key.length !== 32) throw new Error('the key-encryption key must be 32 bytes');
  const kekId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  return {
    seal(kid, privateKeyPem) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(kid, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(privateKeyPem, 'utf8'), cipher.final()]);
      return {
        iv: iv.toString('base64url'),
        tag: cipher.getAuthTag().toString('base64url'),
        ciphertext: ciphertext.toString('base64url'),
        kekId,
      };
    },
    open(kid, sealed) {
      if (sealed.kekId !== kekId) {
        throw new Error(`private key ${kid} was sealed with another key-encryption key (${sealed.kekId})`);
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
        decipher.setAAD(Buffer.from(kid, 'utf8'));
        decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(sealed.ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new Error(
          `private key ${kid} failed authentication: tampered with or sealed under another kid`,
        );
      }
    },
  };
}
