import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { authWithEvents } from '../../testing/auth-with-events';
import { TestBrowser, authorizePath } from '../../testing/hosted-test-client';
import { memoryUserStore } from '../../users';

/**
 * Issue 38: a person who never managed to sign in is found by the address they typed. Once an address is
 * typed, every event of the flow carries it (trimmed, lower-case), with or without an account, failed or
 * abandoned.
 */
describe('hosted sign-in: the typed address is on the flow events, account or not', () => {
  const userStore = memoryUserStore();
  const { auth, eventsOf } = authWithEvents({ userStore });

  const type = async (email: string) => {
    const browser = auth.browser();
    const first = await browser.request(authorizePath());
    const csrf = TestBrowser.csrf(first.body);
    const flow = TestBrowser.formAction(first.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email } });
    return { browser, csrf, flow, flowId: flow.replace('/flow/', '') };
  };

  it('an address with no account, typed and abandoned: the flow records it in lower case', async () => {
    const { flowId } = await type('  Nobody.Here@Example.COM ');
    const events = eventsOf(flowId);
    const typed = events.filter((e) => e.attemptedEmail !== undefined);
    assert.ok(typed.length > 0, 'an event carries the typed address');
    assert.deepEqual([...new Set(typed.map((e) => e.attemptedEmail))], ['nobody.here@example.com']);
    assert.equal(
      events.find((e) => e.userId !== undefined),
      undefined,
      'and names nobody',
    );
    assert.equal(events[0]?.attemptedEmail, undefined, 'the start came before the address was typed');
  });

  it('wrong codes of an address with no account: every failure carries the address', async () => {
    const { browser, csrf, flow, flowId } = await type('ghost@example.com');
    const right = auth.codeFor('ghost@example.com');
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await browser.request(`${flow}/code`, { form: { csrf, code: wrong } });
    const failures = eventsOf(flowId).filter((e) => e.action === 'email_verification_failure');
    assert.equal(failures.length, 5);
    assert.deepEqual(
      failures.map((e) => e.attemptedEmail),
      Array(5).fill('ghost@example.com'),
    );
  });

  it('a refused (not an address) input records no attempted address', async () => {
    const { flowId } = await type('not an address');
    assert.equal(
      eventsOf(flowId).find((e) => e.attemptedEmail !== undefined),
      undefined,
    );
  });
});
