import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { emailStep, signIn } from '../../testing/email-sign-in';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;

const setDisabled = async (auth: Auth, email: string, disabled: boolean) => {
  const user = await auth.users.users.findByEmail(email);
  await auth.users.users.setDisabled(user!.userId, 'tenant-1', disabled ? Date.now() : undefined);
};

/** The "Back to app" link of a hosted error page. */
const backLink = (body: string) => {
  const href = /<a class="button" href="([^"]*)">Back to /.exec(body)?.[1];
  assert.ok(href, 'the page links back to the app');
  return new URL(href.replaceAll('&amp;', '&').replaceAll('&#x3D;', '='));
};

describe('a disabled person on the hosted sign-in (issue 38)', () => {
  const auth = startedForSuite(() => startAuth());

  it('single sign-on and a fresh email code both end on the disabled page; Back to app carries access_denied', async () => {
    const { browser } = await signIn(auth, 'off@example.com');
    await setDisabled(auth, 'off@example.com', true);
    const issuedBefore = auth.issued.length;

    const sso = await browser.request(authorizePath());
    const ssoPage = await browser.request(sso.location);
    const page = await emailStep(auth, 'off@example.com');
    const proven = await page.browser.request(`${page.flow}/code`, {
      form: { csrf: page.csrf, code: auth.codeFor('off@example.com') },
    });
    const codePage = await page.browser.request(proven.location);
    for (const res of [ssoPage, codePage]) {
      assert.equal(res.status, 403);
      assert.match(res.body, /Account disabled/);
      assert.match(res.body, /Contact the app’s support/);
      const back = backLink(res.body);
      assert.equal(back.searchParams.get('error'), 'access_denied');
      assert.equal(back.searchParams.get('error_description'), 'the account is disabled');
      assert.equal(back.searchParams.get('iss'), 'http://localhost');
    }
    assert.equal(auth.issued.length, issuedBefore, 'no code for a disabled person');
  });

  it('prompt=none gets access_denied at once, and enabling restores single sign-on', async () => {
    const { browser } = await signIn(auth, 'later@example.com');
    await setDisabled(auth, 'later@example.com', true);
    const silent = await browser.request(authorizePath({ prompt: 'none' }));
    const refused = await browser.request(silent.location);
    assert.equal(refused.status, 302);
    const url = new URL(refused.location);
    assert.equal(url.searchParams.get('error'), 'access_denied');
    assert.equal(url.searchParams.get('error_description'), 'the account is disabled');

    await setDisabled(auth, 'later@example.com', false);
    const again = await browser.request(authorizePath());
    const done = await browser.request(again.location);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  });

  it('a disabled person typing their address still gets the code page: nothing tells a stranger the account exists', async () => {
    await signIn(auth, 'quiet@example.com');
    await setDisabled(auth, 'quiet@example.com', true);
    const page = await emailStep(auth, 'quiet@example.com');
    assert.equal(page.sent.status, 303);
    const codePage = await page.browser.request(page.flow);
    assert.equal(codePage.status, 200);
    assert.ok(TestBrowser.csrf(codePage.body));
  });
});
