import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { parse } from './authorize-test-support';

describe('login_hint', () => {
  it('takes a bare address, trimmed', async () => {
    assert.equal((await parse({ login_hint: '  ada@example.com ' })).request.loginHint, 'ada@example.com');
  });

  it('takes email:<address> and returns the bare address', async () => {
    assert.equal((await parse({ login_hint: 'email:ada@example.com' })).request.loginHint, 'ada@example.com');
  });

  it('ignores anything that is not an email (OIDC Core 3.1.2.1: a hint), as if no login_hint was sent', async () => {
    const without = (await parse({})).request;
    for (const hint of ['phone:+4915112345678', 'ada', 'email:', 'email:not an email', 'sub:123']) {
      assert.deepEqual((await parse({ login_hint: hint })).request, without, hint);
    }
  });
});
