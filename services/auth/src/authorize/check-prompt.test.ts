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

  it('refuses none with any other value with invalid_request (OIDC Core 3.1.2.1)', async () => {
    for (const prompt of ['none login', 'consent none', 'none select_account'])
      await assertRedirected(
        parse({ prompt }),
        'invalid_request',
        'prompt none must not be combined with other values',
      );
  });

  it('refuses an unknown value with invalid_request', async () => {
    for (const prompt of ['interactive', 'login create', 'NONE'])
      await assertRedirected(
        parse({ prompt }),
        'invalid_request',
        'prompt must be among none, login, consent, select_account',
      );
  });
});
