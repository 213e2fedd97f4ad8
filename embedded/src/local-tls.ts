import {
  X509Certificate,
  createPrivateKey,
  webcrypto as nodeWebcrypto,
  randomBytes,
  type webcrypto,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

/**
 * `npm start -- --https`: a certificate authority made on this machine and a server certificate it signs,
 * kept in one directory (`.sesame/tls/`) and reused across restarts. Node can check certificates but not
 * make them, hence @peculiar/x509 (over node's WebCrypto). The CA is this machine's alone: its key never
 * leaves the directory (mode 0600), and trusting its certificate trusts nothing made elsewhere.
 */

// node:crypto's WebCrypto and the DOM types @peculiar/x509 is declared with are the same objects.
type X509Crypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
const crypto = nodeWebcrypto as unknown as X509Crypto;
const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Ten years: trusting the CA is a one-time step. */
const CA_LIFE_MS = 3650 * DAY_MS;
/** Browsers refuse server certificates valid for more than 398 days. */
const SERVER_LIFE_MS = 397 * DAY_MS;
/** A certificate this close to its end is made anew at start, not reused. */
const RENEW_BEFORE_MS = DAY_MS;

export const TLS_FILES = {
  caCert: 'ca.crt',
  caKey: 'ca.key',
  cert: 'server.crt',
  key: 'server.key',
} as const;

/** The names the server certificate always covers: this machine's loopback names. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

export interface LocalTls {
  dir: string;
  /** The CA certificate's path: the file to trust (the banner and docs/configuration.md say how). */
  caFile: string;
  ca: string;
  cert: string;
  key: string;
  /** What this call made anew (empty: both were reused). */
  created: Array<'ca' | 'server'>;
}

/**
 * The names the certificate is for: the loopback names, and `host` when it is a name or an address a client
 * can dial (not a wildcard like 0.0.0.0 or ::).
 */
export function certificateNames(host: string | undefined): string[] {
  const names: string[] = [...LOOPBACK_NAMES];
  const bare = host?.trim().replace(/^\[|\]$/g, '');
  if (bare && bare !== '0.0.0.0' && bare !== '::' && !names.includes(bare.toLowerCase()))
    names.push(bare.toLowerCase());
  return names;
}

/**
 * The CA and server certificate in `dir`: reused when they are there, valid for more than a day, match their
 * keys and (the server's) cover `names` and were signed by this CA; else made anew. A new CA means a new
 * server certificate; a new server certificate keeps the CA (nothing to trust again).
 */
export async function ensureLocalTls(opts: { dir: string; names: string[]; now?: Date }): Promise<LocalTls> {
  const now = opts.now ?? new Date();
  const path = (file: keyof typeof TLS_FILES) => join(opts.dir, TLS_FILES[file]);
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const created: LocalTls['created'] = [];

  let ca = readPair(path('caCert'), path('caKey'));
  if (!ca || !usable(ca.cert, ca.key, now) || !ca.cert.ca) {
    ca = await createCa(now);
    writePair(path('caCert'), path('caKey'), ca.pem, ca.keyPem);
    created.push('ca');
  }
  let server = created.length ? undefined : readPair(path('cert'), path('key'));
  if (!server || !usable(server.cert, server.key, now) || !covers(server.cert, opts.names))
    server = undefined;
  else if (!server.cert.verify(ca.cert.publicKey)) server = undefined;
  if (!server) {
    server = await createServerCert(ca, opts.names, now);
    writePair(path('cert'), path('key'), server.pem, server.keyPem);
    created.push('server');
  }
  return {
    dir: opts.dir,
    caFile: path('caCert'),
    ca: ca.pem,
    // The chain a client gets: the server certificate, then the CA's (a client that trusts the CA needs no
    // more; one that does not is told which CA to trust).
    cert: `${server.pem}${ca.pem}`,
    key: server.keyPem,
    created,
  };
}

interface Pair {
  cert: X509Certificate;
  pem: string;
  keyPem: string;
  key: ReturnType<typeof createPrivateKey>;
}

function readPair(certFile: string, keyFile: string): Pair | undefined {
  if (!existsSync(certFile) || !existsSync(keyFile)) return undefined;
  try {
    const pem = readFileSync(certFile, 'utf8');
    const keyPem = readFileSync(keyFile, 'utf8');
    return { cert: new X509Certificate(pem), pem, keyPem, key: createPrivateKey(keyPem) };
  } catch {
    // Unreadable or not PEM: made anew.
    return undefined;
  }
}

function usable(cert: X509Certificate, key: Pair['key'], now: Date): boolean {
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  return from <= now.getTime() && to - RENEW_BEFORE_MS > now.getTime() && cert.checkPrivateKey(key);
}

function covers(cert: X509Certificate, names: string[]): boolean {
  return names.every((name) =>
    isIP(name) ? cert.checkIP(name) !== undefined : cert.checkHost(name) !== undefined,
  );
}

function writePair(certFile: string, keyFile: string, pem: string, keyPem: string): void {
  writeFileSync(keyFile, keyPem, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  writeFileSync(certFile, pem, { mode: 0o644 });
}

const pemOf = (tag: string, der: ArrayBuffer) =>
  `-----BEGIN ${tag}-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END ${tag}-----\n`;

/** A positive 128-bit serial number (RFC 5280 allows up to 20 octets; the top bit clear keeps it positive). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

async function keyPair(): Promise<webcrypto.CryptoKeyPair> {
  return (await crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

async function finish(cert: x509.X509Certificate, keys: webcrypto.CryptoKeyPair): Promise<Pair> {
  const pem = `${cert.toString('pem')}\n`;
  const keyPem = pemOf('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', keys.privateKey as never));
  return { cert: new X509Certificate(pem), pem, keyPem, key: createPrivateKey(keyPem) };
}

async function createCa(now: Date): Promise<Pair> {
  const keys = await keyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: `CN=Sesame local development CA (${hostname().replace(/[,=+<>#;"\\]/g, '')}), O=Sesame`,
      notBefore: new Date(now.getTime() - 60_000),
      notAfter: new Date(now.getTime() + CA_LIFE_MS),
      keys,
      signingAlgorithm: alg,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never, false, crypto),
      ],
    },
    crypto,
  );
  return finish(cert, keys);
}

async function createServerCert(ca: Pair, names: string[], now: Date): Promise<Pair> {
  const keys = await keyPair();
  const caKey = await crypto.subtle.importKey(
    'pkcs8',
    ca.key.export({ type: 'pkcs8', format: 'der' }),
    alg,
    false,
    ['sign'],
  );
  const caCert = new x509.X509Certificate(ca.pem);
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: 'CN=localhost, O=Sesame',
      issuer: caCert.subject,
      notBefore: new Date(now.getTime() - 60_000),
      notAfter: new Date(Math.min(now.getTime() + SERVER_LIFE_MS, Date.parse(ca.cert.validTo))),
      signingKey: caKey,
      publicKey: keys.publicKey as never,
      signingAlgorithm: alg,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(
          names.map((value) => ({ type: isIP(value) ? ('ip' as const) : ('dns' as const), value })),
        ),
        await x509.AuthorityKeyIdentifierExtension.create(caCert, false, crypto),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never, false, crypto),
      ],
    },
    crypto,
  );
  return finish(cert, keys);
}

/** What `npm start -- --https` prints about the CA: where it is and how to trust it. */
export function trustBanner(caFile: string): string[] {
  return [
    `  https:     the certificate is signed by this checkout's own CA: ${caFile}`,
    `             trust it once: Node RPs NODE_EXTRA_CA_CERTS=${caFile}; curl --cacert ${caFile};`,
    '             the system and browsers: docs/configuration.md#https-on-one-command',
  ];
}
