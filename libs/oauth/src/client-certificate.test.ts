import assert from 'node:assert/strict';
import { X509Certificate, webcrypto } from 'node:crypto';
import { beforeAll, describe, it } from '@jest/globals';
import * as x509 from '@peculiar/x509';
import { OAuthError } from '@sesame/platform';
import { directory } from '@sesame/proto';
import { exportJWK } from 'jose';
import { authenticateClient } from './authenticate-client';
import {
  type PresentedCertificate,
  certificateKeyInJwks,
  certificateThumbprint,
  clientCertificateOf,
  normalizeDn,
  parseForwardedCertificate,
  subjectDnMatches,
} from './client-certificate';
import { ClientJwks } from './client-jwks';

type X509Crypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
const crypto = webcrypto as unknown as X509Crypto;
const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/** A self-signed client certificate with `subject`, and its public key as a JWK. */
async function clientCert(subject: string, validFor = DAY_MS) {
  const keys = (await crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '0a',
      name: subject,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + validFor),
      keys: keys as never,
      signingAlgorithm: alg,
    },
    crypto,
  );
  const pem = cert.toString('pem');
  return {
    pem,
    der: Buffer.from(cert.rawData),
    node: new X509Certificate(pem),
    jwk: await exportJWK(keys.publicKey),
  };
}

const codeOf = (err: unknown) => (err instanceof OAuthError ? `${err.status} ${err.code}` : String(err));
const clock = { now: () => Date.now() };

describe('mutual-TLS client authentication (RFC 8705)', () => {
  let bank: Awaited<ReturnType<typeof clientCert>>;
  let other: Awaited<ReturnType<typeof clientCert>>;
  beforeAll(async () => {
    bank = await clientCert('CN=bank-rp, O=Bank\\, Inc., C=DE');
    other = await clientCert('CN=bank-rp, O=Other, C=DE');
  });

  const client = (extra: Partial<directory.Client>) =>
    ({
      type: directory.ClientType.CLIENT_TYPE_CONFIDENTIAL,
      jwks: '',
      jwksUri: '',
      ...extra,
    }) as directory.Client;
  const lookup = (c: directory.Client | null) => ({
    getClient: async () => c,
    authenticateClient: async () => c,
  });
  const viaMtls = (c: directory.Client | null, certificate: PresentedCertificate | undefined) =>
    authenticateClient(
      lookup(c),
      { method: 'none', clientId: 'bank' },
      { allowPublic: false, mtls: { certificate: () => certificate, keys: new ClientJwks(clock) } },
    );
  const dnClient = client({
    tokenEndpointAuthMethod: 'tls_client_auth',
    tlsClientAuthSubjectDn: 'C=DE,O=Bank\\, Inc.,CN=bank-rp',
  });
  const selfSigned = () =>
    client({
      tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
      jwks: JSON.stringify({ keys: [bank.jwk] }),
    });

  it('refuses an mTLS client without a certificate, with invalid_client (401)', async () => {
    await assert.rejects(viaMtls(dnClient, undefined), (e) => codeOf(e) === '401 invalid_client');
    await assert.rejects(viaMtls(selfSigned(), undefined), (e) => codeOf(e) === '401 invalid_client');
  });

  it('tls_client_auth: refuses another subject DN, and a right DN whose chain nobody verified', async () => {
    await assert.rejects(
      viaMtls(dnClient, { cert: other.node, chainVerified: true }),
      (e) => codeOf(e) === '401 invalid_client',
    );
    await assert.rejects(
      viaMtls(dnClient, { cert: bank.node, chainVerified: false }),
      (e) => codeOf(e) === '401 invalid_client',
    );
    // No DN registered is no match, never "anything goes".
    await assert.rejects(
      viaMtls(client({ tokenEndpointAuthMethod: 'tls_client_auth' }), {
        cert: bank.node,
        chainVerified: true,
      }),
      (e) => codeOf(e) === '401 invalid_client',
    );
  });

  it('self_signed_tls_client_auth: refuses a certificate whose key is not in the JWK Set', async () => {
    await assert.rejects(
      viaMtls(selfSigned(), { cert: other.node, chainVerified: false }),
      (e) => codeOf(e) === '401 invalid_client',
    );
  });

  it('refuses an expired certificate, an mTLS client where mTLS is not offered, and its secret', async () => {
    const old = await clientCert('CN=bank-rp, O=Bank\\, Inc., C=DE', -DAY_MS / 2);
    const oldClient = client({
      tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
      jwks: JSON.stringify({ keys: [old.jwk] }),
    });
    await assert.rejects(
      viaMtls(oldClient, { cert: old.node, chainVerified: true }),
      (e) => codeOf(e) === '401 invalid_client',
    );
    await assert.rejects(
      authenticateClient(lookup(dnClient), { method: 'none', clientId: 'bank' }, { allowPublic: false }),
      (e) => codeOf(e) === '401 invalid_client',
    );
    await assert.rejects(
      authenticateClient(
        lookup(dnClient),
        { method: 'client_secret_post', clientId: 'bank', clientSecret: 's' },
        { allowPublic: false },
      ),
      (e) => codeOf(e) === '401 invalid_client',
    );
  });

  it('accepts the registered DN (any attribute order, escapes, case) and the registered key', async () => {
    assert.equal(await viaMtls(dnClient, { cert: bank.node, chainVerified: true }), dnClient);
    const c = selfSigned();
    assert.equal(await viaMtls(c, { cert: bank.node, chainVerified: false }), c);
    assert.equal(subjectDnMatches(bank.node, 'cn=BANK-RP,o=bank\\, inc.,c=de'), true);
    assert.equal(subjectDnMatches(bank.node, 'CN=bank-rp,O=Bank\\, Inc.'), false);
    assert.equal(normalizeDn('not a dn'), undefined);
    assert.equal(certificateKeyInJwks(bank.node, { keys: [{ ...bank.jwk, use: 'enc' }] }), false);
  });

  it('reads the forwarded header only when SESAME_TLS_CLIENT_CERT_HEADER names it: nginx PEM and HAProxy DER', () => {
    const nginx = encodeURIComponent(bank.pem);
    const haproxy = bank.der.toString('base64');
    const headers = { 'x-client-cert': nginx };
    // The variable unset: the header is ignored (anyone could have written it), the socket has none.
    assert.equal(clientCertificateOf({ headers, socket: {} }), undefined);
    assert.equal(
      clientCertificateOf({ headers, socket: {} }, { cert: 'X-Client-Cert' })?.cert.fingerprint256,
      bank.node.fingerprint256,
    );
    assert.equal(parseForwardedCertificate(haproxy)?.fingerprint256, bank.node.fingerprint256);
    for (const junk of [
      '',
      '(null)',
      'Zm9v',
      `${'A'.repeat(20_000)}`,
      '%ZZ-----BEGIN',
      '-----BEGIN CERTIFICATE-----\nAAAA',
    ])
      assert.equal(parseForwardedCertificate(junk), undefined, junk.slice(0, 20));
    // Repeated header values are not one certificate.
    assert.equal(
      clientCertificateOf({ headers: { 'x-client-cert': [nginx, nginx] } }, { cert: 'x-client-cert' }),
      undefined,
    );
  });

  it('counts a forwarded chain as verified only when the verify header, itself configured, says so', () => {
    const nginx = encodeURIComponent(bank.pem);
    const verdict = (headers: Record<string, string>, verify?: string) =>
      clientCertificateOf(
        { headers: { 'x-client-cert': nginx, ...headers } },
        { cert: 'x-client-cert', ...(verify ? { verify } : {}) },
      )?.chainVerified;
    // No verify variable: a caller's own "SUCCESS" means nothing.
    assert.equal(verdict({ 'x-client-verify': 'SUCCESS' }), false);
    assert.equal(verdict({}, 'x-client-verify'), false);
    for (const refused of ['FAILED:unable to get issuer certificate', 'NONE', '20', 'success'])
      assert.equal(verdict({ 'x-client-verify': refused }, 'x-client-verify'), false, refused);
    assert.equal(verdict({ 'x-client-verify': 'SUCCESS' }, 'X-Client-Verify'), true);
    assert.equal(verdict({ 'x-client-verify': '0' }, 'x-client-verify'), true);
  });

  it("reads the TLS socket when no header is configured: its chain verdict is the socket's", () => {
    const socket = { getPeerCertificate: () => ({ raw: bank.der }), authorized: false };
    const got = clientCertificateOf({ headers: { 'x-client-cert': encodeURIComponent(other.pem) }, socket });
    assert.equal(got?.cert.fingerprint256, bank.node.fingerprint256);
    assert.equal(got?.chainVerified, false);
    assert.equal(clientCertificateOf({ headers: {}, socket: { getPeerCertificate: () => ({}) } }), undefined);
  });

  it('thumbprints the certificate as cnf.x5t#S256: base64url SHA-256 of the DER', () => {
    const hex = bank.node.fingerprint256.replace(/:/g, '');
    assert.equal(certificateThumbprint(bank.node), Buffer.from(hex, 'hex').toString('base64url'));
    assert.notEqual(certificateThumbprint(bank.node), certificateThumbprint(other.node));
  });
});
