import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertInvalidRequest, assertRedirected, parse } from './authorize-test-support';

describe('prompt', () => {
  it('returns login for prompt login', async () => {
    assert.equal((await parse({ prompt: 'login' })).request.prompt, 'login');
  });

  it('answers prompt none with login_required', async () => {
    await assertRedirected(
      parse({ prompt: 'none' }),
      'login_required',
      'prompt none is not supported: signing in needs the user',
    );
  });

  it('refuses consent, select_account and combinations with invalid_request', async () => {
    for (const prompt of ['consent', 'select_account', 'login consent', 'none login']) {
      await assertInvalidRequest({ prompt }, 'only prompt login is supported');
    }
  });
});
