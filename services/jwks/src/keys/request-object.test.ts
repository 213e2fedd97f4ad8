import assert from 'node:assert/strict';
import { type JsonWebKey, createPrivateKey, createPublicKey } from 'node:crypto';
import { beforeAll, describe, it } from '@jest/globals';
import { CompactEncrypt } from 'jose';
import { type KeyMaterial, keyMaterialGenerator } from './key-material';
import { type DecryptionKeyResolver, decryptRequestObject, requestObjectEncs } from './request-object';

const generate = keyMaterialGenerator({ now: () => Date.now() });
let current: KeyMaterial;
let older: KeyMaterial;
let resolve: DecryptionKeyResolver;
const payload = JSON.stringify({ client_id: 'app-1', scope: 'openid email', nonce: 'n-1' });

async function encrypt(
  to: KeyMaterial,
  header: Record<string, unknown>,
  plaintext = payload,
): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', ...header })
    .encrypt(createPublicKey({ key: to.publicJwk as JsonWebKey, format: 'jwk' }));
}

/** A well-formed compact JWE with this header and junk parts (for algorithms jose will not encrypt with). */
const withHeader = (header: Record<string, unknown>) =>
  [Buffer.from(JSON.stringify(header)).toString('base64url'), 'a', 'b', 'c', 'd'].join('.');

describe('request object decryption', () => {
  beforeAll(async () => {
    [current, older] = await Promise.all([generate('enc'), generate('enc')]);
    const keys = new Map([current, older].map((m) => [m.kid, createPrivateKey(m.privateKeyPem)]));
    resolve = (kid) => {
      const id = kid ?? current.kid;
      const key = keys.get(id);
      return key ? { kid: id, key } : undefined;
    };
  });

  for (const enc of requestObjectEncs) {
    it(`decrypts RSA-OAEP-256 with ${enc} to the current key`, async () => {
      const jwe = await encrypt(current, { enc, kid: current.kid });
      assert.deepEqual(await decryptRequestObject(jwe, resolve), { plaintext: payload, kid: current.kid });
    });
  }

  it('decrypts with a still-published older enc key named by kid', async () => {
    const jwe = await encrypt(older, { kid: older.kid });
    assert.deepEqual(await decryptRequestObject(jwe, resolve), { plaintext: payload, kid: older.kid });
  });

  it('uses the current enc key when the header names no kid', async () => {
    const jwe = await encrypt(current, {});
    assert.equal((await decryptRequestObject(jwe, resolve)).kid, current.kid);
  });

  const refusals: Array<[string, () => Promise<string>, RegExp]> = [
    ['an empty string', async () => '', /request object is empty/],
    ['a signed JWT (three parts)', async () => 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln', /not a compact JWE/],
    ['a header that is not JSON', async () => 'bm90anNvbg.a.b.c.d', /no valid JWE protected header/],
    [
      'alg RSA1_5',
      async () => withHeader({ alg: 'RSA1_5', enc: 'A256GCM' }),
      /JWE alg RSA1_5 is not supported; use RSA-OAEP-256/,
    ],
    ['enc A192GCM', async () => encrypt(current, { enc: 'A192GCM' }), /JWE enc A192GCM is not supported/],
    [
      'an unknown kid',
      async () => encrypt(current, { kid: 'gone' }),
      /JWE kid gone is not a published enc key/,
    ],
    [
      'a kid naming another key than the one used',
      async () => encrypt(older, { kid: current.kid }),
      /could not be decrypted/,
    ],
    [
      'a tampered ciphertext',
      async () => {
        const parts = (await encrypt(current, { kid: current.kid })).split('.');
        parts[3] = `${parts[3]!.startsWith('A') ? 'B' : 'A'}${parts[3]!.slice(1)}`;
        return parts.join('.');
      },
      /could not be decrypted/,
    ],
    [
      'a compressed JWE',
      async () => encrypt(current, { zip: 'DEF' }),
      /compressed \(zip\) request objects are not supported/,
    ],
    ['a JWE over 64 KiB', async () => 'a'.repeat(70_000), /exceeds 65536 bytes/],
  ];
  for (const [what, make, message] of refusals) {
    it(`refuses ${what} with a clear message`, async () => {
      await assert.rejects(decryptRequestObject(await make(), resolve), (err: Error) => {
        assert.equal(err.name, 'RequestObjectError');
        assert.match(err.message, message);
        return true;
      });
    });
  }
});
