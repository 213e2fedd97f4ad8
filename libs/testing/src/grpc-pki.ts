import { webcrypto } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

// node:crypto's WebCrypto and the DOM types @peculiar/x509 is declared with are the same objects.
type X509Crypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
const crypto = webcrypto as unknown as X509Crypto;
const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The three files a service reads (SESAME_GRPC_TLS_CA, _CERT, _KEY). */
export interface TlsFiles {
  ca: string;
  cert: string;
  key: string;
}

export interface TestPki {
  dir: string;
  caFile: string;
  /** A certificate with subject CN=`name`, for both server and client use, signed by this CA. */
  issue(name: string, opts?: { dnsNames?: string[]; ipAddresses?: string[] }): Promise<TlsFiles>;
}

const pem = (tag: string, der: ArrayBuffer) =>
  `-----BEGIN ${tag}-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END ${tag}-----\n`;

/**
 * A throwaway CA in a temp directory, and certificates from it, the way the cluster's issuer makes them:
 * CN = service name, DNS SANs = the names clients dial. ECDSA P-256 keeps generation fast.
 */
export async function createTestPki(label = 'ca'): Promise<TestPki> {
  const dir = mkdtempSync(join(tmpdir(), `sesame-pki-${label}-`));
  const now = Date.now();
  const caKeys = (await crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const caCert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '01',
      name: `CN=sesame test ${label}`,
      notBefore: new Date(now - DAY_MS),
      notAfter: new Date(now + DAY_MS),
      keys: caKeys,
      signingAlgorithm: alg,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ],
    },
    crypto,
  );
  const caFile = join(dir, 'ca.crt');
  writeFileSync(caFile, caCert.toString('pem'));
  let serial = 1;
  return {
    dir,
    caFile,
    async issue(name, opts = {}) {
      const keys = (await crypto.subtle.generateKey(alg, true, [
        'sign',
        'verify',
      ])) as webcrypto.CryptoKeyPair;
      serial += 1;
      const names = [
        ...(opts.dnsNames ?? [name, 'localhost']).map((value) => ({ type: 'dns' as const, value })),
        ...(opts.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
      ];
      const cert = await x509.X509CertificateGenerator.create(
        {
          serialNumber: serial.toString(16).padStart(2, '0'),
          subject: `CN=${name}`,
          issuer: caCert.subject,
          notBefore: new Date(now - DAY_MS),
          notAfter: new Date(now + DAY_MS),
          signingKey: caKeys.privateKey,
          publicKey: keys.publicKey,
          signingAlgorithm: alg,
          extensions: [
            new x509.BasicConstraintsExtension(false, undefined, true),
            new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
            new x509.ExtendedKeyUsageExtension([
              x509.ExtendedKeyUsage.serverAuth,
              x509.ExtendedKeyUsage.clientAuth,
            ]),
            new x509.SubjectAlternativeNameExtension(names),
          ],
        },
        crypto,
      );
      const files = {
        ca: caFile,
        cert: join(dir, `${name}-${serial}.crt`),
        key: join(dir, `${name}-${serial}.key`),
      };
      writeFileSync(files.cert, cert.toString('pem'));
      writeFileSync(files.key, pem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', keys.privateKey)), {
        mode: 0o600,
      });
      return files;
    },
  };
}
