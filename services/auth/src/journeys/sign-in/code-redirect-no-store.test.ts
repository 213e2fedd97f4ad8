import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { toConsent } from '../../testing/email-sign-in';
import { authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

/** Issue 26: every redirect to the RP carries a code or the state, so no cache may keep it. */
describe('redirects to the redirect_uri carry Cache-Control no-store', () => {
  const auth = startedForSuite(() => startAuth());

  it('the 302 with the code after consent', async () => {
    const { browser, csrf, flow } = await toConsent(auth, 'nostore-1@example.com');
    const done = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
    assert.equal(done.status, 302);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
    assert.equal(done.headers.get('cache-control'), 'no-store');
  });

  it('the 302 with the code of single sign-on, and the one of prompt none', async () => {
    const { browser, csrf, flow } = await toConsent(auth, 'nostore-2@example.com');
    await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
    const again = await browser.request(authorizePath({ state: 'st-2' }));
    const sso = await browser.request(again.location);
    assert.equal(sso.status, 302);
    assert.match(sso.location, /^https:\/\/rp\.example\/cb\?code=/);
    assert.equal(sso.headers.get('cache-control'), 'no-store');
    const silent = await browser.request(authorizePath({ prompt: 'none', state: 'st-3' }));
    const code = silent.status === 303 ? await browser.request(silent.location) : silent;
    assert.match(code.location, /^https:\/\/rp\.example\/cb\?code=/);
    assert.equal(code.headers.get('cache-control'), 'no-store');
  });

  it('the error redirects with the state: deny, prompt none without a session, a bad request', async () => {
    const { browser, csrf, flow } = await toConsent(auth, 'nostore-3@example.com');
    const denied = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'deny' } });
    assert.match(denied.location, /error=access_denied/);
    assert.equal(denied.headers.get('cache-control'), 'no-store');
    const silent = await auth.browser().request(authorizePath({ prompt: 'none' }));
    assert.match(silent.location, /error=login_required/);
    assert.equal(silent.headers.get('cache-control'), 'no-store');
    const bad = await auth.browser().request(authorizePath({ response_type: 'token' }));
    assert.equal(bad.status, 302);
    assert.match(bad.location, /error=unsupported_response_type/);
    assert.equal(bad.headers.get('cache-control'), 'no-store');
  });
});
