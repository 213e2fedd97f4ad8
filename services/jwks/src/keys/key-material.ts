import { type KeyObject, generateKeyPair, randomBytes, webcrypto } from 'node:crypto';
import { promisify } from 'node:util';
import * as x509 from '@peculiar/x509';
import type { Clock } from '@sesame/platform';
import { calculateJwkThumbprint } from 'jose';
import { type KeyUse, type PublicRsaJwk, algorithmOf } from './key';

const generateRsa = promisify(generateKeyPair);
// node:crypto's WebCrypto types and the DOM types @peculiar/x509 is declared with are the same objects.
type SelfSignedParams = Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0];
type X509Crypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
const CERT_VALIDITY_MS = 2 * 365 * 24 * 60 * 60 * 1000;
const certSigning = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const keyUsage = {
  sig: x509.KeyUsageFlags.digitalSignature,
  enc: x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.dataEncipherment,
} satisfies Record<KeyUse, number>;

/** A fresh key pair before it is sealed and stored. */
export interface KeyMaterial {
  kid: string;
  use: KeyUse;
  alg: string;
  publicJwk: PublicRsaJwk;
  x5c: string[];
  privateKeyPem: string;
  createdAt: number;
}

export type GenerateKeyMaterial = (use: KeyUse) => Promise<KeyMaterial>;

/**
 * RSA-2048 pair; kid = RFC 7638 thumbprint of the public JWK; x5c = a self-signed certificate for the key
 * (the certificate proves possession; RPs trust the key through the JWK set fetched over TLS, not a CA).
 */
export function keyMaterialGenerator(clock: Clock): GenerateKeyMaterial {
  return async (use) => {
    const { publicKey, privateKey } = await generateRsa('rsa', {
      modulusLength: 2048,
      publicExponent: 0x10001,
    });
    const jwk = publicKey.export({ format: 'jwk' });
    if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error('generated key is not an RSA key');
    const publicJwk: PublicRsaJwk = { kty: 'RSA', n: jwk.n, e: jwk.e };
    const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
    const createdAt = clock.now();
    const certificate = await selfSignedCertificate(publicKey, privateKey, use, kid, createdAt);
    return {
      kid,
      use,
      alg: algorithmOf[use],
      publicJwk,
      x5c: [certificate],
      privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      createdAt,
    };
  };
}

async function selfSignedCertificate(
  publicKey: KeyObject,
  privateKey: KeyObject,
  use: KeyUse,
  kid: string,
  createdAt: number,
): Promise<string> {
  // WebCrypto only signs with a key imported for signing; the enc key signs nothing but its own certificate.
  const subtle = webcrypto.subtle;
  const keys = {
    privateKey: await subtle.importKey(
      'pkcs8',
      privateKey.export({ format: 'der', type: 'pkcs8' }),
      certSigning,
      false,
      ['sign'],
    ),
    publicKey: await subtle.importKey(
      'spki',
      publicKey.export({ format: 'der', type: 'spki' }),
      certSigning,
      true,
      ['verify'],
    ),
  };
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomBytes(16)
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      name: `CN=Sesame ${use} key ${kid}`,
      notBefore: new Date(createdAt - 60_000),
      notAfter: new Date(createdAt + CERT_VALIDITY_MS),
      signingAlgorithm: certSigning,
      keys: keys as unknown as SelfSignedParams['keys'],
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(keyUsage[use], true),
      ],
    },
    webcrypto as unknown as X509Crypto,
  );
  return Buffer.from(cert.rawData).toString('base64');
}
