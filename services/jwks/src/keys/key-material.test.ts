import assert from 'node:assert/strict';
import {
  type JsonWebKey,
  X509Certificate,
  createPrivateKey,
  createPublicKey,
  randomBytes,
} from 'node:crypto';
import { describe, it } from '@jest/globals';
import { calculateJwkThumbprint } from 'jose';
import type { PublicRsaJwk } from './key';
import { createKeyEncryptionKey } from './key-encryption';
import { keyMaterialGenerator } from './key-material';

const T = Date.UTC(2026, 0, 1);
const generate = keyMaterialGenerator({ now: () => T });

describe('key material', () => {
  it('generates an RSA-2048 signing key: RS256, kid = RFC 7638 thumbprint, PKCS#8 private key', async () => {
    const m = await generate('sig');
    assert.equal(m.use, 'sig');
    assert.equal(m.alg, 'RS256');
    assert.equal(m.createdAt, T);
    assert.equal(m.kid, await calculateJwkThumbprint(m.publicJwk, 'sha256'));
    const pub = createPublicKey({ key: m.publicJwk as JsonWebKey, format: 'jwk' });
    assert.equal(pub.asymmetricKeyDetails?.modulusLength, 2048);
    assert.match(m.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
    const priv = createPrivateKey(m.privateKeyPem);
    assert.equal(createPublicKey(priv).export({ format: 'jwk' }).n, (m.publicJwk as PublicRsaJwk).n);
  });

  it('generates an RSA-OAEP-256 enc key with its own kid', async () => {
    const [sig, enc] = await Promise.all([generate('sig'), generate('enc')]);
    assert.equal(enc.alg, 'RSA-OAEP-256');
    assert.notEqual(enc.kid, sig.kid);
  });

  it('generates a PS256 signing key on RSA-2048 and an ES256 one on P-256 with an ECDSA-signed x5c', async () => {
    const ps = await generate('sig', 'PS256');
    assert.equal(ps.alg, 'PS256');
    assert.equal(createPublicKey(ps.privateKeyPem).asymmetricKeyDetails?.modulusLength, 2048);
    const es = await generate('sig', 'ES256');
    assert.equal(es.alg, 'ES256');
    assert.deepEqual(Object.keys(es.publicJwk), ['kty', 'crv', 'x', 'y']);
    assert.equal(es.kid, await calculateJwkThumbprint(es.publicJwk, 'sha256'));
    const priv = createPrivateKey(es.privateKeyPem);
    assert.equal(priv.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    const jwkOf = (k: import('node:crypto').KeyObject) => {
      const { kty, crv, x, y } = k.export({ format: 'jwk' });
      return { kty, crv, x, y };
    };
    assert.deepEqual(jwkOf(createPublicKey(priv)), es.publicJwk);
    const cert = new X509Certificate(Buffer.from(es.x5c[0]!, 'base64'));
    assert.deepEqual(jwkOf(cert.publicKey), es.publicJwk);
    assert.ok(cert.verify(cert.publicKey), 'self-signed by the EC key itself');
    assert.equal(cert.subject, `CN=Sesame sig ES256 key ${es.kid}`);
    await assert.rejects(generate('enc', 'ES256'), /signing algorithm/);
  });

  it('x5c holds one self-signed certificate for exactly this key, valid from its creation', async () => {
    for (const use of ['sig', 'enc'] as const) {
      const m = await generate(use);
      assert.equal(m.x5c.length, 1);
      const cert = new X509Certificate(Buffer.from(m.x5c[0]!, 'base64'));
      assert.equal(cert.publicKey.export({ format: 'jwk' }).n, (m.publicJwk as PublicRsaJwk).n);
      assert.ok(cert.verify(cert.publicKey), 'self-signed by the key itself');
      assert.equal(cert.subject, `CN=Sesame ${use} key ${m.kid}`);
      assert.ok(
        new Date(cert.validFrom).getTime() <= T && new Date(cert.validTo).getTime() > T + 365 * 86_400_000,
      );
      assert.equal(cert.ca, false);
    }
  });
});

describe('private keys at rest (AES-256-GCM under the key-encryption key)', () => {
  const kek = createKeyEncryptionKey(randomBytes(32));
  const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n';

  it('seals to ciphertext that contains no part of the plaintext, and opens it again', () => {
    const sealed = kek.seal('kid-1', pem);
    assert.doesNotMatch(JSON.stringify(sealed), /PRIVATE KEY|MIIEvQIBADANBgkqhkiG9w0BAQEFAASC/);
    assert.equal(Buffer.from(sealed.iv, 'base64url').length, 12);
    assert.equal(Buffer.from(sealed.tag, 'base64url').length, 16);
    assert.equal(kek.open('kid-1', sealed), pem);
  });

  it('uses a fresh IV per seal', () => {
    assert.notEqual(kek.seal('kid-1', pem).iv, kek.seal('kid-1', pem).iv);
  });

  it('refuses a tampered ciphertext and a ciphertext moved to another kid', () => {
    const sealed = kek.seal('kid-1', pem);
    const bytes = Buffer.from(sealed.ciphertext, 'base64url');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    assert.throws(
      () => kek.open('kid-1', { ...sealed, ciphertext: bytes.toString('base64url') }),
      /failed authentication/,
    );
    assert.throws(() => kek.open('kid-2', sealed), /failed authentication/);
  });

  it('names the problem when the key was sealed under another key-encryption key', () => {
    const sealed = createKeyEncryptionKey(randomBytes(32)).seal('kid-1', pem);
    assert.throws(() => kek.open('kid-1', sealed), /sealed with another key-encryption key/);
  });

  it('refuses a key-encryption key that is not 32 bytes', () => {
    assert.throws(() => createKeyEncryptionKey(randomBytes(16)), /must be 32 bytes/);
  });
});
