import { type KeyObject, generateKeyPair, randomBytes, webcrypto } from 'node:crypto';
import { promisify } from 'node:util';
import * as x509 from '@peculiar/x509';
import type { Clock } from '@sesame/platform';
import { calculateJwkThumbprint } from 'jose';
import { type KeySlot, type KeyUse, type PublicJwk, algorithmOf } from './key';

const generateRsa = promisify(generateKeyPair);
const generateEc = promisify(generateKeyPair);
// node:crypto's WebCrypto types and the DOM types @peculiar/x509 is declared with are the same objects.
type SelfSignedParams = Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0];
type X509Crypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
const CERT_VALIDITY_MS = 2 * 365 * 24 * 60 * 60 * 1000;
const rsaCertSigning = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const ecCertSigning = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const keyUsage = {
  sig: x509.KeyUsageFlags.digitalSignature,
  enc: x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.dataEncipherment,
} satisfies Record<KeyUse, number>;

/** A fresh key pair before it is sealed and stored. */
export interface KeyMaterial {
  kid: string;
  use: KeyUse;
  alg: string;
  publicJwk: PublicJwk;
  x5c: string[];
  privateKeyPem: string;
  createdAt: number;
}

/** A key pair for a slot; the slot's alg defaults to the use's (RS256, RSA-OAEP-256). */
export type GenerateKeyMaterial = (use: KeyUse, alg?: string) => Promise<KeyMaterial>;

/**
 * RSA-2048 pair (RS256, PS256, RSA-OAEP-256) or P-256 pair (ES256); kid = RFC 7638 thumbprint of the public
 * JWK; x5c = a self-signed certificate for the key (RSA-signed for RSA keys, ECDSA-signed for EC keys; the
 * certificate proves possession; RPs trust the key through the JWK set fetched over TLS, not a CA).
 */
export function keyMaterialGenerator(clock: Clock): GenerateKeyMaterial {
  return async (use, alg = algorithmOf[use]) => {
    const ec = alg === 'ES256';
    if (ec && use !== 'sig') throw new Error('ES256 is a signing algorithm');
    const { publicKey, privateKey } = ec
      ? await generateEc('ec', { namedCurve: 'P-256' })
      : await generateRsa('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    const publicJwk = toPublicJwk(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
    const createdAt = clock.now();
    const certificate = await selfSignedCertificate(publicKey, privateKey, { use, alg }, kid, createdAt);
    return {
      kid,
      use,
      alg,
      publicJwk,
      x5c: [certificate],
      privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      createdAt,
    };
  };
}

function toPublicJwk(publicKey: KeyObject): PublicJwk {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty === 'RSA' && jwk.n && jwk.e) return { kty: 'RSA', n: jwk.n, e: jwk.e };
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && jwk.x && jwk.y)
    return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  throw new Error('generated key is neither RSA nor P-256');
}

async function selfSignedCertificate(
  publicKey: KeyObject,
  privateKey: KeyObject,
  slot: KeySlot,
  kid: string,
  createdAt: number,
): Promise<string> {
  const { use } = slot;
  const certSigning = slot.alg === 'ES256' ? ecCertSigning : rsaCertSigning;
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
      name: `CN=Sesame ${use}${slot.alg === algorithmOf[use] ? '' : ` ${slot.alg}`} key ${kid}`,
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
