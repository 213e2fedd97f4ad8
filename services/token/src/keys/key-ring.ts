import { type KeyObject, createPrivateKey } from 'node:crypto';
import type { keys } from '@sesame/proto';

export interface ActiveSigningKey {
  kid: string;
  alg: 'RS256';
  key: KeyObject;
  /** BASE64URL of the JWS protected header {alg, kid, typ}, encoded once per key. */
  encodedHeader: string;
  activatedAt: number;
}

/**
 * The signing key token currently uses, fed by the Keys.WatchSigningKey stream. Switching is one
 * assignment: a request that already read the key signs with it (the old key stays published in /jwks
 * until its tokens expire), every later request gets the new one — no restart, no failed request.
 */
export class KeyRing {
  private active: ActiveSigningKey | undefined;
  /** Keys are activated one after the other, so an older key never overwrites a newer one. */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * Imports a key from the stream and makes it the active one, unless it was activated before the active
   * one (then the active key stays and is returned). Rejects a key it cannot use.
   */
  accept(key: keys.SigningKey): Promise<ActiveSigningKey> {
    const next = this.queue.then(() => this.activate(key));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async activate(key: keys.SigningKey): Promise<ActiveSigningKey> {
    if (key.alg !== 'RS256') throw new Error(`unsupported signing alg ${key.alg}`);
    if (!key.kid) throw new Error('signing key without kid');
    if (this.active?.kid === key.kid) return this.active;
    // A jwks pod that lags behind a rotation may stream the previous key after a reconnect: keep the newer.
    if (this.active && key.activatedAt < this.active.activatedAt) return this.active;
    const privateKey = createPrivateKey({ key: key.privateKeyPem, format: 'pem' });
    if (
      privateKey.asymmetricKeyType !== 'rsa' ||
      (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048
    ) {
      throw new Error('RS256 needs an RSA private key of at least 2048 bits');
    }
    const header = { alg: 'RS256', kid: key.kid, typ: 'JWT' };
    this.active = {
      kid: key.kid,
      alg: 'RS256',
      key: privateKey,
      encodedHeader: Buffer.from(JSON.stringify(header)).toString('base64url'),
      activatedAt: key.activatedAt,
    };
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
