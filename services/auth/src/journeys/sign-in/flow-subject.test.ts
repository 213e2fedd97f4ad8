import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { authWithEvents } from '../../testing/auth-with-events';
import { TestBrowser, authorizePath, type startAuth } from '../../testing/hosted-test-client';
import { memoryUserStore } from '../../users';
import { membership } from '../../users/users.contract';

/**
 * Records say whom a flow was about (support, issue 24): once an existing person's address is typed, every
 * event carries their userId and the email, proven or not; what the browser sees is the same as for an
 * unknown address.
 */
describe('hosted sign-in: the typed address names the person in the flow events', () => {
  const userStore = memoryUserStore();
  const { auth, eventsOf } = authWithEvents({ userStore });

  const typeAndFail = async (email: string) => {
    const browser = auth.browser();
    const first = await browser.request(authorizePath());
    const csrf = TestBrowser.csrf(first.body);
    const flow = TestBrowser.formAction(first.body).replace(/\/email$/, '');
    const typed = await browser.request(`${flow}/email`, { form: { csrf, email } });
    const right = auth.codeFor(email.trim().toLowerCase());
    const wrong = right === '000000' ? '111111' : '000000';
    const pages: { status: number; body: string }[] = [];
    for (let i = 0; i < 5; i++)
      pages.push(await browser.request(`${flow}/code`, { form: { csrf, code: wrong } }));
    return { flowId: flow.replace('/flow/', ''), typed, pages };
  };

  it('five wrong codes of a member of the tenant: every failure carries the userId and the email', async () => {
    await userStore.users.create({ userId: 'u-known', email: 'known@example.com', createdAt: 1 });
    await userStore.memberships.save(membership('tenant-1', 'app-1', 'u-known'));
    const { flowId } = await typeAndFail(' Known@Example.com ');
    const failures = eventsOf(flowId).filter((e) => e.action === 'email_verification_failure');
    assert.equal(failures.length, 5);
    assert.deepEqual(
      [...new Set(failures.map((e) => `${e.userId} ${e.email}`))],
      ['u-known known@example.com'],
    );
    assert.equal(failures.at(-1)?.status, 'failure');
  });

  it('an unknown address, and a person who never joined the tenant, name nobody; the pages are alike', async () => {
    await userStore.users.create({ userId: 'u-elsewhere', email: 'elsewhere@example.com', createdAt: 1 });
    await userStore.memberships.save(membership('tenant-2', 'app-9', 'u-elsewhere'));
    const known = await typeAndFail('known@example.com');
    for (const email of ['nobody@example.com', 'elsewhere@example.com']) {
      const { flowId, typed, pages } = await typeAndFail(email);
      const events = eventsOf(flowId);
      assert.ok(events.length > 0);
      assert.deepEqual(
        events.filter((e) => e.userId !== undefined || e.email !== undefined),
        [],
        email,
      );
      assert.equal(typed.status, known.typed.status);
      assert.deepEqual(
        pages.map((p) => p.status),
        known.pages.map((p) => p.status),
      );
      const strip = (body: string) =>
        body.replace(new RegExp(email, 'g'), 'X').replace(/known@example\.com/g, 'X');
      assert.equal(strip(pages[4]!.body).length > 0, true);
      assert.equal(
        strip(pages[4]!.body).replace(/[A-Za-z0-9_-]{20,}/g, ''),
        strip(known.pages[4]!.body).replace(/[A-Za-z0-9_-]{20,}/g, ''),
        'the same page as for a known person',
      );
    }
  });
});
