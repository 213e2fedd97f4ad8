import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { suiteHarness } from '@sesame/testing/suite';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';

type Auth = Awaited<ReturnType<typeof startAuth>>;

describe('the claims parameter’s standard claims reach token with the grant (OIDC Core 5.5)', () => {
  const auth = suiteHarness(startAuth);

  /** Signs in by email code with this /authorize request; returns the recorded IssueCode request. */
  async function signIn(extra: Record<string, string>, email: string) {
    const browser = auth.browser();
    const first = await browser.request(authorizePath(extra));
    const csrf = TestBrowser.csrf(first.body);
    const emailAction = TestBrowser.formAction(first.body);
    await browser.request(emailAction, { form: { csrf, email } });
    const flow = emailAction.replace(/\/email$/, '');
    await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
    const done = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
    return { first, issued: auth.issued.at(-1)! };
  }

  it('sends the answerable id_token and userinfo names; an email value prefills the sign-in page', async () => {
    const claims = JSON.stringify({
      id_token: { email: { essential: true, value: 'claimed@example.com' }, nickname: null },
      userinfo: { email: null, phone_number: null },
    });
    const { first, issued } = await signIn({ claims }, 'claimed@example.com');
    assert.match(first.body, /value="claimed@example\.com"/);
    assert.deepEqual(issued.requestedClaims, { idToken: ['email'], userinfo: ['email', 'phone_number'] });
  });

  it('sends no requested claims without a claims parameter', async () => {
    const { issued } = await signIn({}, 'plain-claims@example.com');
    assert.equal(issued.requestedClaims, undefined);
  });
});
