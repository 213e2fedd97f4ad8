import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { Request } from 'express';
import { readCookie } from './context';

const withCookie = (cookie: string) =>
  ({ header: (n: string) => (n === 'cookie' ? cookie : undefined) }) as Request;

describe('readCookie', () => {
  it('reads the console cookie among others', () => {
    assert.equal(readCookie(withCookie('a=1; sesame-console=Ab-_09; b=2'), 'sesame-console'), 'Ab-_09');
    assert.equal(readCookie(withCookie('a=1'), 'sesame-console'), undefined);
  });

  it('treats a malformed or foreign value as no cookie instead of throwing (was a 500 on %%%)', () => {
    for (const value of ['%%%', '%E0%A4%A', 'a b', '"quoted"', 'x'.repeat(129), ''])
      assert.equal(readCookie(withCookie(`sesame-console=${value}`), 'sesame-console'), undefined, value);
  });
});
