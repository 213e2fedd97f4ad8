import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { sha256 } from './ids';

describe('sha256', () => {
  it('is the base64url SHA-256 of the UTF-8 string, so hashes stored before keep matching', () => {
    assert.equal(sha256('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    for (const value of ['', 'api\u0000cred-1\u0000s3cret', 'Grüße, 東京 🔑'])
      assert.equal(sha256(value), createHash('sha256').update(value, 'utf8').digest('base64url'));
  });
});
