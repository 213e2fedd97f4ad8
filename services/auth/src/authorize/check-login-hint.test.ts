import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertInvalidRequest, parse } from './authorize-test-support';

describe('login_hint', () => {
  it('takes a bare address, trimmed', async () => {
    assert.equal((await parse({ login_hint: '  ada@example.com ' })).request.loginHint, 'ada@example.com');
  });

  it('takes email:<address> and returns the bare address', async () => {
    assert.equal((await parse({ login_hint: 'email:ada@example.com' })).request.loginHint, 'ada@example.com');
  });

  it('refuses anything that is not an email with invalid_request', async () => {
    for (const hint of ['phone:+4915112345678', 'ada', 'email:', 'email:not an email', 'sub:123']) {
      await assertInvalidRequest(
        { login_hint: hint },
        'login_hint must be an email address or email:<address>',
      );
    }
  });
});
