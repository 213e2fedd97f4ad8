import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { authWithEvents } from '../../testing/auth-with-events';
import { TestBrowser, authorizePath, type startAuth } from '../../testing/hosted-test-client';

/** The flow events a hosted sign-in records (signin/flow-events.ts), read back from the in-memory bus. */
describe('hosted sign-in flow events (auth service, in-memory stores and bus)', () => {
  const { auth, eventsOf } = authWithEvents();

  it('a fifth wrong code fails the flow: status failure and auth_failure; the wrong tries before only say why', async () => {
    const browser = auth.browser();
    const first = await browser.request(authorizePath());
    const csrf = TestBrowser.csrf(first.body);
    const flow = TestBrowser.formAction(first.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email: 'five@example.com' } });
    const right = auth.codeFor('five@example.com');
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      assert.equal((await browser.request(`${flow}/code`, { form: { csrf, code: wrong } })).status, 400);
    }
    const flowId = flow.replace('/flow/', '');
    const failures = eventsOf(flowId).filter((e) => e.action === 'email_verification_failure');
    assert.deepEqual(
      failures.map((e) => [e.status, e.errorCode, e.failureReason]),
      [
        ...Array.from({ length: 4 }, () => [undefined, undefined, 'wrong email code']),
        ['failure', 'auth_failure', 'email code expired or tried too often'],
      ],
    );
    // The right code after that finds a dead code: the flow stays failed.
    assert.equal((await browser.request(`${flow}/code`, { form: { csrf, code: right } })).status, 400);
    const last = eventsOf(flowId).at(-1);
    assert.deepEqual(
      [last?.action, last?.status, last?.errorCode],
      ['email_verification_failure', 'failure', 'auth_failure'],
    );
  });
});
