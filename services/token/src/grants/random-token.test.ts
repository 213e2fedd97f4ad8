import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { randomTokenSource } from './random-token';

describe('randomTokenSource', () => {
  it('yields distinct 256-bit base64url values across pool refills', () => {
    const next = randomTokenSource();
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const token = next();
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(Buffer.from(token, 'base64url').length, 32);
      seen.add(token);
    }
    assert.equal(seen.size, 1000);
  });
});
