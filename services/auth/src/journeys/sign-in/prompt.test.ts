import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { setDeviceAccess } from '../../testing/device-access';
import { signIn } from '../../testing/email-sign-in';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/** A browser that signed `email` in by email code and consented (scope openid email). */
const signedIn = async (auth: Auth, email: string) => (await signIn(auth, email)).browser;

/** The error, description and state of a redirect to the RP. */
function rpError(location: string) {
  const url = new URL(location);
  assert.equal(url.origin + url.pathname, 'https://rp.example/cb');
  return {
    error: url.searchParams.get('error'),
    description: url.searchParams.get('error_description'),
    state: url.searchParams.get('state'),
    iss: url.searchParams.get('iss'),
  };
}

describe('prompt none (OIDC Core 3.1.2.1, errors of 3.1.2.6)', () => {
  const auth = startedForSuite(startAuth);

  it('with a live session and the consent given: a code at once, no page, the session’s auth_time', async () => {
    const browser = await signedIn(auth, 'silent@example.com');
    const first = auth.issued.at(-1)!;
    const res = await browser.request(authorizePath({ prompt: 'none', state: 'st-9', nonce: 'n-9' }));
    assert.equal(res.status, 303);
    const done = await browser.request(res.location);
    assert.equal(done.status, 302);
    const url = new URL(done.location);
    assert.equal(url.searchParams.get('state'), 'st-9');
    assert.match(url.searchParams.get('code') ?? '', /^code-\d+$/);
    const issued = auth.issued.at(-1)!;
    assert.notEqual(issued, first);
    assert.equal(issued.claims?.sub, first.claims?.sub);
    assert.equal(issued.claims?.authTime, first.claims?.authTime);
  });

  it('without a session: login_required to the redirect URI, no page and no code (both /authorize paths)', async () => {
    for (const expressOnly of [false, true]) {
      const alone = expressOnly ? await startAuth({ expressOnly }) : auth;
      try {
        const before = alone.issued.length;
        const res = await alone.browser().request(authorizePath({ prompt: 'none', state: 'st-3' }));
        assert.equal(res.status, 302);
        assert.deepEqual(rpError(res.location), {
          error: 'login_required',
          description: 'prompt none: nobody is signed in who may be used for this request',
          state: 'st-3',
          iss: 'http://localhost',
        });
        assert.equal(alone.issued.length, before);
      } finally {
        if (alone !== auth) await alone.stop();
      }
    }
  });

  it('with a session but consent due for a new scope: consent_required, and nothing was consented', async () => {
    const browser = await signedIn(auth, 'noconsent@example.com');
    const before = auth.issued.length;
    const res = await browser.request(authorizePath({ prompt: 'none', scope: 'openid email phone' }));
    assert.equal(res.status, 302);
    assert.equal(rpError(res.location).error, 'consent_required');
    assert.equal(auth.issued.length, before);
    const user = await auth.users.users.findByEmail('noconsent@example.com');
    const membership = await auth.users.memberships.get('tenant-1', 'app-1', user!.userId);
    assert.ok(!membership?.consentedScopes?.includes('phone'));
    // The same request with pages asks for consent.
    const interactive = await browser.request(authorizePath({ scope: 'openid email phone' }));
    assert.match((await browser.request(interactive.location)).body, />Approve</);
  });

  it('with a session too old for max_age: login_required', async () => {
    const browser = await signedIn(auth, 'oldsilent@example.com');
    const res = await browser.request(authorizePath({ prompt: 'none', max_age: '0' }));
    assert.equal(rpError(res.location).error, 'login_required');
  });

  it('with a phone to verify (acr ts.svc.iac.phone_number): interaction_required', async () => {
    const browser = await signedIn(auth, 'nophone@example.com');
    const res = await browser.request(
      authorizePath({ prompt: 'none', acr_values: 'ts.svc.iac.phone_number' }),
    );
    assert.equal(rpError(res.location).error, 'interaction_required');
  });

  it('with a session on a device an admin blocked: access_denied as with pages, no code', async () => {
    const browser = await signedIn(auth, 'silent-blocked@example.com');
    await setDeviceAccess(auth, 'silent-blocked@example.com', false);
    const before = auth.issued.length;
    const res = await browser.request(authorizePath({ prompt: 'none' }));
    const ended = res.status === 303 ? await browser.request(res.location) : res;
    assert.equal(rpError(ended.location).error, 'access_denied');
    assert.equal(auth.issued.length, before);
  });

  it('none with another value is invalid_request to the redirect URI', async () => {
    const res = await auth.browser().request(authorizePath({ prompt: 'none login' }));
    assert.equal(rpError(res.location).error, 'invalid_request');
  });
});

describe('prompt consent, prompt login and max_age with a live session', () => {
  const auth = startedForSuite(startAuth);

  it('prompt consent shows the consent page although every scope was consented before', async () => {
    const browser = await signedIn(auth, 'reconsent@example.com');
    const sso = await browser.request(authorizePath());
    assert.equal((await browser.request(sso.location)).status, 302, 'no consent page without prompt');
    const res = await browser.request(authorizePath({ prompt: 'consent' }));
    assert.equal(res.status, 303);
    const page = await browser.request(res.location);
    assert.equal(page.status, 200);
    assert.match(page.body, />Approve</);
  });

  it('max_age 0 and a max_age shorter than the session show the sign-in page; a longer one keeps single sign-on', async () => {
    const browser = await signedIn(auth, 'maxage@example.com');
    const first = auth.issued.at(-1)!;
    const long = await browser.request(authorizePath({ max_age: '3600' }));
    assert.equal(long.status, 303, 'a session younger than max_age is reused');
    await browser.request(long.location);
    assert.equal(auth.issued.at(-1)?.claims?.authTime, first.claims?.authTime);
    const zero = await browser.request(authorizePath({ max_age: '0' }));
    assert.equal(zero.status, 200);
    assert.match(zero.body, /Email address/);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const short = await browser.request(authorizePath({ max_age: '1' }));
    assert.equal(short.status, 200);
    assert.match(short.body, /Email address/);
  });

  it('a fresh sign-in forced by max_age gives a new auth_time', async () => {
    const browser = await signedIn(auth, 'fresh-age@example.com');
    const first = auth.issued.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const page = await browser.request(authorizePath({ max_age: '0' }));
    const csrf = TestBrowser.csrf(page.body);
    const emailAction = TestBrowser.formAction(page.body);
    await browser.request(emailAction, { form: { csrf, email: 'fresh-age@example.com' } });
    const flow = emailAction.replace(/\/email$/, '');
    const code = auth.codeFor('fresh-age@example.com'); // the newest code sent there
    const proven = await browser.request(`${flow}/code`, { form: { csrf, code } });
    const done = await browser.request(proven.location);
    assert.equal(done.status, 302);
    assert.match(done.location, /[?&]code=/);
    const second = auth.issued.at(-1)!;
    assert.ok(second.claims!.authTime > first.claims!.authTime);
  });
});

describe('prompt select_account (the "Not you?" choice)', () => {
  const auth = startedForSuite(startAuth);

  it('with a live session: a page to continue as the signed-in person, which then signs in by the session', async () => {
    const browser = await signedIn(auth, 'chooser@example.com');
    const first = auth.issued.at(-1)!;
    const page = await browser.request(authorizePath({ prompt: 'select_account', state: 'st-5' }));
    assert.equal(page.status, 200);
    assert.match(page.body, /You are signed in as chooser@example\.com/);
    assert.match(page.body, />Use another account</);
    const action = TestBrowser.formAction(page.body);
    assert.match(action, /^\/flow\/[\w-]+\/select-account$/);
    const chosen = await browser.request(action, {
      form: { csrf: TestBrowser.csrf(page.body), choice: 'continue' },
    });
    assert.equal(chosen.status, 303);
    const done = await browser.request(chosen.location);
    assert.equal(done.status, 302);
    assert.equal(new URL(done.location).searchParams.get('state'), 'st-5');
    assert.equal(auth.issued.at(-1)?.claims?.sub, first.claims?.sub);
    assert.equal(auth.issued.at(-1)?.claims?.authTime, first.claims?.authTime);
  });

  it('"Use another account" shows the sign-in page and issues nothing; a forged CSRF token changes nothing', async () => {
    const browser = await signedIn(auth, 'other-account@example.com');
    const before = auth.issued.length;
    const page = await browser.request(authorizePath({ prompt: 'select_account' }));
    const action = TestBrowser.formAction(page.body);
    const forged = await browser.request(action, { form: { csrf: 'forged', choice: 'continue' } });
    assert.notEqual(forged.status, 303);
    const other = await browser.request(action, {
      form: { csrf: TestBrowser.csrf(page.body), choice: 'other' },
    });
    assert.equal(other.status, 303);
    const signIn = await browser.request(other.location);
    assert.equal(signIn.status, 200);
    assert.match(signIn.body, /Email address/);
    assert.equal(auth.issued.length, before);
  });

  it('without a session, or with prompt login too: the sign-in page', async () => {
    const page = await auth.browser().request(authorizePath({ prompt: 'select_account' }));
    assert.match(page.body, /Email address/);
    const browser = await signedIn(auth, 'chooser-login@example.com');
    const both = await browser.request(authorizePath({ prompt: 'select_account login' }));
    assert.equal(both.status, 200);
    assert.match(both.body, /Email address/);
    assert.doesNotMatch(both.body, /You are signed in as/);
  });
});
