import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { authWithEvents } from '../../testing/auth-with-events';
import { TestBrowser, authorizePath, type startAuth } from '../../testing/hosted-test-client';

/** The flow events a hosted sign-in records (signin/flow-events.ts), read back from the in-memory bus. */
describe('hosted sign-in flow events (auth service, in-memory stores and bus)', () => {
  const { auth, eventsOf } = authWithEvents();

  it("a flow's id is a UUID of version 7 that starts with the time the flow started (the activity log's key)", async () => {
    const before = Date.now();
    const first = await auth.browser().request(authorizePath());
    const after = Date.now();
    const flowId = TestBrowser.formAction(first.body)
      .replace(/\/email$/, '')
      .replace('/flow/', '');
    assert.match(flowId, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const startedAt = Number.parseInt(flowId.replaceAll('-', '').slice(0, 12), 16);
    assert.ok(startedAt >= before && startedAt <= after, `${startedAt} is not in [${before}, ${after}]`);
    assert.deepEqual(
      eventsOf(flowId).map((e) => e.action),
      ['auth_start_oidc', 'desktop_login_page'],
    );
  });

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
