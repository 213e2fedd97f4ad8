import { X509Certificate, createHash } from 'node:crypto';
import type { JSONWebKeySet, JWK } from 'jose';
import { oauthErrors } from './errors';

/**
 * Mutual-TLS client authentication (RFC 8705): the certificate a client presented, read from the TLS socket
 * (`npm start -- --https` asks for one) or from the header a TLS terminator forwards it in; what it proves for
 * tls_client_auth (the registered subject DN) and self_signed_tls_client_auth (a key of the registered JWK
 * Set); and its SHA-256 thumbprint for certificate-bound access tokens (cnf.x5t#S256).
 */

/** A forwarded certificate larger than this is not read (a real one is a few KiB). */
const MAX_FORWARDED_CHARS = 16 * 1024;

/**
 * The certificate in a terminator's header: URL-encoded PEM (nginx `$ssl_client_escaped_cert`, Envoy's XFCC
 * `Cert=` value without the rest) or base64 DER (HAProxy `%[ssl_c_der,base64]`). Undefined for an empty
 * value (nginx sends none when the client sent none) or anything that is not one certificate.
 */
export function parseForwardedCertificate(value: string | undefined): X509Certificate | undefined {
  const text = value?.trim();
  if (!text || text.length > MAX_FORWARDED_CHARS) return undefined;
  try {
    if (text.includes('BEGIN')) return new X509Certificate(decodeURIComponent(text));
    if (!/^[A-Za-z0-9+/=\s]+$/.test(text)) return undefined;
    return new X509Certificate(Buffer.from(text, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * A client certificate as presented, and whether it chains to a CA this deployment trusts for clients: the
 * terminator's verification (its header is forwarded only for a verified chain, as configured) or the TLS
 * socket's (`authorized`, against the listener's `ca`). tls_client_auth needs the chain; the self-signed
 * method does not (the key itself is registered).
 */
export interface PresentedCertificate {
  cert: X509Certificate;
  chainVerified: boolean;
}

/** The certificate a TLS peer presented (node's getPeerCertificate), or undefined for none. */
export function socketCertificate(socket: unknown): PresentedCertificate | undefined {
  const tls = socket as {
    getPeerCertificate?: (detailed?: boolean) => { raw?: Buffer };
    authorized?: boolean;
  };
  const peer = tls.getPeerCertificate?.(false);
  if (!peer?.raw?.length) return undefined;
  try {
    return { cert: new X509Certificate(peer.raw), chainVerified: tls.authorized === true };
  } catch {
    return undefined;
  }
}

/** The headers a TLS terminator forwards (SESAME_TLS_CLIENT_CERT_HEADER, SESAME_TLS_CLIENT_VERIFY_HEADER). */
export interface ForwardedCertificateHeaders {
  /** The certificate; unset: no header is read. */
  cert?: string;
  /** The terminator's verdict on the chain: `SUCCESS` (nginx $ssl_client_verify) or `0` (HAProxy ssl_c_verify). */
  verify?: string;
}

const headerValue = (req: { headers: Record<string, string | string[] | undefined> }, name: string) => {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? undefined : value;
};

/**
 * Where a request's client certificate comes from: the header named by SESAME_TLS_CLIENT_CERT_HEADER when it is
 * set (the terminator is the only way in, and it overwrites the header), else the TLS socket. Without the
 * variable the header is never read: a caller could write any certificate into it. A forwarded certificate
 * counts as chain-verified only when the verify header says so (its variable set too): a terminator that
 * passes unverified certificates on (nginx optional_no_ca) cannot make a self-made one look CA-issued.
 */
export function clientCertificateOf(
  req: { headers: Record<string, string | string[] | undefined>; socket?: unknown },
  forwarded: ForwardedCertificateHeaders = {},
): PresentedCertificate | undefined {
  if (forwarded.cert) {
    const cert = parseForwardedCertificate(headerValue(req, forwarded.cert));
    if (!cert) return undefined;
    const verdict = forwarded.verify ? headerValue(req, forwarded.verify)?.trim() : undefined;
    return { cert, chainVerified: verdict === 'SUCCESS' || verdict === '0' };
  }
  return socketCertificate(req.socket);
}

/** cnf.x5t#S256 (RFC 8705 3.1): base64url of the SHA-256 of the certificate's DER. */
export function certificateThumbprint(cert: X509Certificate): string {
  return createHash('sha256').update(cert.raw).digest('base64url');
}

const ATTRIBUTE_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
  '1.2.840.113549.1.9.1': 'EMAILADDRESS',
  EMAIL: 'EMAILADDRESS',
  S: 'ST',
};

/**
 * A DN as a sorted list of `TYPE=value` (types upper-cased, values with escapes undone, spaces collapsed and
 * case folded): RFC 4514 strings (`CN=client,O=Bank\, Inc.,C=DE`) and node's X509Certificate.subject (one
 * attribute a line, the other order) give the same list. Undefined for a string that is not a DN.
 */
export function normalizeDn(dn: string, separator: ',' | '\n' = ','): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < dn.length; i++) {
    const ch = dn[i]!;
    if (ch === '\\' && i + 1 < dn.length) {
      current += dn[++i];
      continue;
    }
    if (ch === separator || ch === '+') {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  const out: string[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const rawType = part.slice(0, eq).trim().toUpperCase();
    const type = ATTRIBUTE_NAMES[rawType] ?? rawType;
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/\s+/g, ' ')
      .toLowerCase();
    if (!type || !value) return undefined;
    out.push(`${type}=${value}`);
  }
  return out.sort();
}

/** tls_client_auth by subject DN (RFC 8705 2.1.2): the certificate's subject is the registered one. */
export function subjectDnMatches(cert: X509Certificate, registered: string): boolean {
  const want = normalizeDn(registered);
  const got = normalizeDn(cert.subject, '\n');
  return !!want && !!got && want.length === got.length && want.every((part, i) => part === got[i]);
}

/** The parts of a public JWK that name the key (RFC 7638's members), as one comparable string. */
function keyIdentity(jwk: JWK): string | undefined {
  if (jwk.kty === 'RSA' && jwk.n && jwk.e) return `RSA|${jwk.n}|${jwk.e}`;
  if (jwk.kty === 'EC' && jwk.crv && jwk.x && jwk.y) return `EC|${jwk.crv}|${jwk.x}|${jwk.y}`;
  if (jwk.kty === 'OKP' && jwk.crv && jwk.x) return `OKP|${jwk.crv}|${jwk.x}`;
  return undefined;
}

/** self_signed_tls_client_auth (RFC 8705 2.2): the certificate's public key is one of the client's keys. */
export function certificateKeyInJwks(cert: X509Certificate, jwks: JSONWebKeySet): boolean {
  const presented = keyIdentity(cert.publicKey.export({ format: 'jwk' }) as JWK);
  if (!presented) return false;
  return jwks.keys.some(
    (key) => (key.use === undefined || key.use === 'sig') && keyIdentity(key) === presented,
  );
}

/** The client authentication methods of RFC 8705, and what each reads of the client's registration. */
export const MTLS_AUTH_METHODS = ['tls_client_auth', 'self_signed_tls_client_auth'] as const;
export type MtlsAuthMethod = (typeof MTLS_AUTH_METHODS)[number];
export const isMtlsAuthMethod = (method: string | undefined): method is MtlsAuthMethod =>
  (MTLS_AUTH_METHODS as readonly string[]).includes(method ?? '');

export interface MtlsClient {
  clientId: string;
  tokenEndpointAuthMethod?: string;
  tlsClientAuthSubjectDn?: string;
}

/**
 * Checks the presented certificate for an mTLS client: none, or one that does not prove the registration, is
 * invalid_client (the same answer whatever failed). `keysOf` gives the client's JWK Set (self-signed only).
 */
export async function verifyClientCertificate(
  client: MtlsClient,
  presented: PresentedCertificate | undefined,
  keysOf: () => Promise<JSONWebKeySet | undefined>,
  now: Date = new Date(),
): Promise<void> {
  const refused = (why: string) => oauthErrors.invalidClient(why);
  if (!presented) throw refused('the client must present its certificate (mutual TLS)');
  const { cert } = presented;
  if (Date.parse(cert.validFrom) > now.getTime() || Date.parse(cert.validTo) < now.getTime())
    throw refused('the client certificate is not valid now');
  if (client.tokenEndpointAuthMethod === 'tls_client_auth') {
    if (!presented.chainVerified) throw refused('the client certificate is not from a trusted CA');
    if (!client.tlsClientAuthSubjectDn || !subjectDnMatches(cert, client.tlsClientAuthSubjectDn))
      throw refused('the client certificate is not the registered one');
    return;
  }
  if (client.tokenEndpointAuthMethod === 'self_signed_tls_client_auth') {
    const jwks = await keysOf();
    if (!jwks || !certificateKeyInJwks(cert, jwks))
      throw refused('the client certificate is not the registered one');
    return;
  }
  throw refused('the client is not registered for mutual TLS');
}
