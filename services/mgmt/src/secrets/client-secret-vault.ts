import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The copy of each confidential client's secret that mgmt keeps so it can check HMAC signatures keyed by
 * that secret (interactive init, ARCHITECTURE §7). The hash stays the only thing client authentication reads;
 * this copy is AES-256-GCM under a server key (SESAME_CLIENT_SECRET_KEYS), bound to the application by its
 * additional data, so a sealed value copied onto another app's record does not open. Envelope:
 * `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts): the key id lets keys rotate: the first key of the
 * ring seals, every key of the ring opens. Never returned by an API, never logged.
 */
export class ClientSecretVault {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly activeKeyId: string;

  constructor(ring: ReadonlyArray<{ id: string; key: Buffer }>) {
    const first = ring[0];
    if (!first) throw new Error('the client secret key ring is empty');
    for (const { id, key } of ring) {
      if (key.length !== 32) throw new Error(`client secret key ${id} must be 32 bytes`);
    }
    this.keys = new Map(ring.map(({ id, key }) => [id, key]));
    this.activeKeyId = first.id;
  }

  seal(secret: string, binding: SealBinding): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.activeKeyId)!, iv);
    cipher.setAAD(aadOf(binding));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return ['v1', this.activeKeyId, ...parts].join('.');
  }

  /** The secret, or undefined when the envelope is malformed, its key is not in the ring, or it was tampered. */
  open(sealed: string, binding: SealBinding): string | undefined {
    const [version, keyId, iv, tag, body, ...rest] = sealed.split('.');
    if (version !== 'v1' || !keyId || !iv || !tag || body === undefined || rest.length) return undefined;
    const key = this.keys.get(keyId);
    if (!key) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(aadOf(binding));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      return plain.toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** The key id a sealed value was sealed under (for re-sealing after a rotation). */
  static keyIdOf(sealed: string): string | undefined {
    return sealed.split('.')[1];
  }
}

export interface SealBinding {
  tenantId: string;
  appId: string;
  clientId: string;
}

const aadOf = (b: SealBinding) =>
  Buffer.from(`sesame:mgmt:client-secret:${b.tenantId}:${b.appId}:${b.clientId}`, 'utf8');

/**
 * Parses `SESAME_CLIENT_SECRET_KEYS`: comma-separated `<keyId>:<32 bytes base64url>`, the sealing key first.
 * Key ids are short names ([A-Za-z0-9_-], at most 32).
 */
export function parseKeyRing(value: string): Array<{ id: string; key: Buffer }> {
  const ring = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf(':');
      const id = entry.slice(0, at);
      const key = Buffer.from(entry.slice(at + 1), 'base64url');
      if (at < 1 || !/^[\w-]{1,32}$/.test(id)) throw new Error('each entry must be <keyId>:<key>');
      if (key.length !== 32) throw new Error(`key ${id} must be 32 bytes, base64url-encoded`);
      return { id, key };
    });
  if (!ring.length) throw new Error('at least one key is required');
  if (new Set(ring.map((k) => k.id)).size !== ring.length) throw new Error('key ids must be unique');
  return ring;
}
