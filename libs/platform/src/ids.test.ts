import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { safeEqual, sha256, sha256Bytes } from './ids';

describe('sha256', () => {
  it('is the base64url SHA-256 of the UTF-8 string, so hashes stored before keep matching', () => {
    assert.equal(sha256('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    for (const value of ['', 'api\u0000cred-1\u0000s3cret', 'Grüße, 東京 🔑'])
      assert.equal(sha256(value), createHash('sha256').update(value, 'utf8').digest('base64url'));
  });
});

describe('sha256Bytes', () => {
  it('is the SHA-256 of the UTF-8 string or of the bytes, as a Buffer', () => {
    const abc = sha256Bytes('abc');
    assert.ok(Buffer.isBuffer(abc));
    assert.equal(abc.toString('hex'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const bytes = Buffer.from([0, 255, 1, 254, 0x80]);
    assert.deepEqual(sha256Bytes(bytes), createHash('sha256').update(bytes).digest());
    assert.deepEqual(sha256Bytes('Grüße 🔑'), createHash('sha256').update('Grüße 🔑', 'utf8').digest());
  });
});

describe('safeEqual', () => {
  it('is true for equal strings only, whatever their lengths', () => {
    assert.equal(safeEqual('s3cret', 's3cret'), true);
    assert.equal(safeEqual('s3cret', 's3creT'), false);
    assert.equal(safeEqual('s3cret', 's3cret '), false);
    assert.equal(safeEqual('', ''), true);
    assert.equal(safeEqual('', 'x'), false);
  });
});
