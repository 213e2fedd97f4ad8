import { constants, type KeyObject, createPrivateKey } from 'node:crypto';
import type { keys } from '@sesame/proto';

/** The algs token signs ID tokens with; RS256 is the spec's default (an app that chose none). */
export type IdTokenAlg = 'RS256' | 'PS256' | 'ES256';
export const idTokenAlgs: readonly IdTokenAlg[] = ['RS256', 'PS256', 'ES256'];
export const isIdTokenAlg = (alg: unknown): alg is IdTokenAlg =>
  typeof alg === 'string' && (idTokenAlgs as readonly string[]).includes(alg);

/** node:crypto's sign options per alg: PKCS#1 v1.5, PSS with a digest-long salt (RFC 7518 §3.5), raw r||s. */
export type SignOptions =
  | KeyObject
  | { key: KeyObject; padding: number; saltLength: number }
  | { key: KeyObject; dsaEncoding: 'ieee-p1363' };

export interface ActiveSigningKey {
  kid: string;
  alg: IdTokenAlg;
  key: KeyObject;
  /** What node:crypto's sign takes for this alg (the key, with PSS padding or the JWS signature encoding). */
  signWith: SignOptions;
  /** BASE64URL of the JWS protected header {alg, kid, typ}, encoded once per key. */
  encodedHeader: string;
  activatedAt: number;
}

/**
 * The signing keys token currently uses, one per alg, fed by the Keys.WatchSigningKey stream. Switching is
 * one assignment: a request that already read the key signs with it (the old key stays published in /jwks
 * until its tokens expire), every later request gets the new one — no restart, no failed request.
 */
export class KeyRing {
  private readonly active = new Map<IdTokenAlg, ActiveSigningKey>();
  /** Keys are activated one after the other, so an older key never overwrites a newer one. */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * Imports a key from the stream and makes it the active one of its alg, unless it was activated before
   * that alg's active one (then the active key stays and is returned). Rejects a key it cannot use.
   */
  accept(key: keys.SigningKey): Promise<ActiveSigningKey> {
    const next = this.queue.then(() => this.activate(key));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async activate(key: keys.SigningKey): Promise<ActiveSigningKey> {
    const alg = key.alg;
    if (!isIdTokenAlg(alg)) throw new Error(`unsupported signing alg ${alg}`);
    if (!key.kid) throw new Error('signing key without kid');
    const current = this.active.get(alg);
    if (current?.kid === key.kid) return current;
    // A jwks pod that lags behind a rotation may stream the previous key after a reconnect: keep the newer.
    if (current && key.activatedAt < current.activatedAt) return current;
    const privateKey = createPrivateKey({ key: key.privateKeyPem, format: 'pem' });
    let signWith: SignOptions = privateKey;
    if (alg === 'ES256') {
      if (
        privateKey.asymmetricKeyType !== 'ec' ||
        privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1'
      )
        throw new Error('ES256 needs a P-256 private key');
      signWith = { key: privateKey, dsaEncoding: 'ieee-p1363' };
    } else {
      if (
        privateKey.asymmetricKeyType !== 'rsa' ||
        (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048
      ) {
        throw new Error(`${alg} needs an RSA private key of at least 2048 bits`);
      }
      if (alg === 'PS256')
        signWith = {
          key: privateKey,
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
        };
    }
    const header = { alg, kid: key.kid, typ: 'JWT' };
    const next: ActiveSigningKey = {
      kid: key.kid,
      alg,
      key: privateKey,
      signWith,
      encodedHeader: Buffer.from(JSON.stringify(header)).toString('base64url'),
      activatedAt: key.activatedAt,
    };
    this.active.set(alg, next);
    return next;
  }

  /** Whether a key of this alg arrived (RS256, the default every app without a choice uses, by default). */
  has(alg: IdTokenAlg = 'RS256'): boolean {
    return this.active.has(alg);
  }

  /**
   * The key of this alg to sign with now; throws while none has arrived (readiness is false until the RS256
   * one has). Never another alg's key: an app set to ES256 gets an ES256 token or none.
   */
  current(alg: IdTokenAlg = 'RS256'): ActiveSigningKey {
    const key = this.active.get(alg);
    if (!key) throw new Error(`no ${alg} signing key received from the Keys service yet`);
    return key;
  }
}
