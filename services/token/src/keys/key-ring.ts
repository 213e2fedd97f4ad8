import type { keys } from '@sesame/proto';
import { importPKCS8 } from 'jose';

export interface ActiveSigningKey {
  kid: string;
  alg: 'RS256';
  key: CryptoKey;
  activatedAt: number;
}

/**
 * The signing key token currently uses, fed by the Keys.WatchSigningKey stream. Switching is one
 * assignment: a request that already read the key signs with it (the old key stays published in /jwks
 * until its tokens expire), every later request gets the new one — no restart, no failed request.
 */
export class KeyRing {
  private active: ActiveSigningKey | undefined;
  /** Keys are imported one after the other, so a slow import never overwrites a newer key. */
  private queue: Promise<unknown> = Promise.resolve();

  /** Imports a key from the stream and makes it the active one. Rejects a key it cannot use. */
  accept(key: keys.SigningKey): Promise<ActiveSigningKey> {
    const next = this.queue.then(() => this.activate(key));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async activate(key: keys.SigningKey): Promise<ActiveSigningKey> {
    if (key.alg !== 'RS256') throw new Error(`unsupported signing alg ${key.alg}`);
    if (!key.kid) throw new Error('signing key without kid');
    if (this.active?.kid === key.kid) return this.active;
    const imported = await importPKCS8(key.privateKeyPem, 'RS256');
    this.active = { kid: key.kid, alg: 'RS256', key: imported as CryptoKey, activatedAt: key.activatedAt };
    return this.active;
  }

  has(): boolean {
    return this.active !== undefined;
  }

  /** The key to sign with now; throws while no key has arrived (readiness is false until then). */
  current(): ActiveSigningKey {
    if (!this.active) throw new Error('no signing key received from the Keys service yet');
    return this.active;
  }
}
