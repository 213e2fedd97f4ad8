import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertRedirected, parse } from './authorize-test-support';
import { hasPrompt } from './check-prompt';

describe('prompt', () => {
  it('returns login for prompt login', async () => {
    assert.equal((await parse({ prompt: 'login' })).request.prompt, 'login');
  });

  it('accepts every OIDC Core value alone: none, login, consent, select_account', async () => {
    for (const prompt of ['none', 'login', 'consent', 'select_account'])
      assert.equal((await parse({ prompt })).request.prompt, prompt);
  });

  it('accepts combinations without none, each value once in the caller order', async () => {
    const { request } = await parse({ prompt: 'consent  login consent' });
    assert.equal(request.prompt, 'consent login');
    assert.ok(hasPrompt(request, 'login') && hasPrompt(request, 'consent'));
    assert.ok(!hasPrompt(request, 'select_account') && !hasPrompt(request, 'none'));
  });

  it.each([
    [
      'refuses none with any other value with invalid_request (OIDC Core 3.1.2.1)',
      ['none login', 'consent none', 'none select_account'],
      'prompt none must not be combined with other values',
    ],
    [
      'refuses an unknown value with invalid_request',
      ['interactive', 'login create', 'NONE'],
      'prompt must be among none, login, consent, select_account',
    ],
  ])('%s', async (_title, prompts, description) => {
    for (const prompt of prompts) await assertRedirected(parse({ prompt }), 'invalid_request', description);
  });
});
