import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { TestBrowser, authorizePath } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';
import {
  ISSUER,
  type OAuthError,
  hint,
  jwt,
  logoutAuth,
  showsSignInPage,
  signIn,
  stranger,
} from './logout-test-support';

describe('RP-Initiated Logout at /logout (auth service, in-memory stores)', () => {
  const { start: startLogout, signed, notices } = logoutAuth();
  const auth = startedForSuite(startLogout);

  it('refuses a post_logout_redirect_uri the client did not register: no redirect, an error, the session lives', async () => {
    const { browser, sub, sid } = await signIn(auth, 'unregistered@example.com');
    const query = new URLSearchParams({
      id_token_hint: hint(sub, sid),
      post_logout_redirect_uri: 'https://evil.example/signed-out',
      state: 's1',
    });
    const page = await browser.request(`/logout?${query}`);
    assert.equal(page.status, 400);
    assert.equal(page.location, '');
    assert.match(page.body, /Sign-out request not valid/);
    const json = await fetch(`${auth.base}/logout?${query}`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 400);
    assert.deepEqual(await json.json(), {
      error: 'invalid_request',
      error_description: 'post_logout_redirect_uri is not registered for this client',
    });
    // A registered URI with something added is not the registered URI (exact match).
    const longer = new URLSearchParams({
      client_id: 'client-1',
      post_logout_redirect_uri: 'https://rp.example/signed-out?x=1',
    });
    assert.equal((await browser.request(`/logout?${longer}`)).status, 400);
    assert.equal(await showsSignInPage(browser), false, 'still signed in');
  });

  it('refuses an id_token_hint issued to another client than client_id', async () => {
    const { browser, sub, sid } = await signIn(auth, 'otherclient@example.com');
    const res = await fetch(
      `${auth.base}/logout?${new URLSearchParams({ id_token_hint: hint(sub, sid, { aud: 'client-2' }), client_id: 'client-1' })}`,
      { headers: { accept: 'application/json' } },
    );
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: 'invalid_request',
      error_description: 'id_token_hint was not issued to client_id',
    });
    assert.equal(await showsSignInPage(browser), false);
  });

  it('refuses a forged id_token_hint (a key that is not published) and one of another issuer', async () => {
    const { browser, sub, sid } = await signIn(auth, 'forged@example.com');
    const forged = jwt({ iss: ISSUER, sub, aud: 'client-1', sid }, stranger.privateKey);
    const res = await browser.request(`/logout?${new URLSearchParams({ id_token_hint: forged })}`);
    assert.equal(res.status, 400);
    assert.equal(res.location, '');
    const elsewhere = await fetch(
      `${auth.base}/logout?${new URLSearchParams({ id_token_hint: hint(sub, sid, { iss: 'https://evil.example' }) })}`,
      { headers: { accept: 'application/json' } },
    );
    assert.equal(elsewhere.status, 400);
    assert.match(((await elsewhere.json()) as OAuthError).error_description, /another issuer/);
    assert.equal(await showsSignInPage(browser), false);
  });

  it("a hint of another tenant's client: refused with this tenant's client_id, and never ends this tenant's session", async () => {
    const { browser, sub, sid } = await signIn(auth, 'tenants@example.com');
    const foreignHint = hint(sub, sid, { aud: 'client-b' });
    const mixed = await browser.request(
      `/logout?${new URLSearchParams({ id_token_hint: foreignHint, client_id: 'client-1' })}`,
    );
    assert.equal(mixed.status, 400);
    const alone = await browser.request(
      `/logout?${new URLSearchParams({ id_token_hint: foreignHint, post_logout_redirect_uri: 'https://b.example/signed-out' })}`,
    );
    assert.equal(alone.status, 303, 'the other tenant’s app gets its registered redirect');
    assert.equal(alone.location, 'https://b.example/signed-out');
    assert.equal(await showsSignInPage(browser), false, 'the tenant-1 session was not ended');
  });

  it('without a hint asks first (Sign out / Cancel); Cancel keeps the session, Sign out ends it and redirects with state', async () => {
    const { browser } = await signIn(auth, 'nohint@example.com');
    const query = new URLSearchParams({
      client_id: 'client-1',
      post_logout_redirect_uri: 'https://rp.example/signed-out',
      state: 'st-9',
    });
    const ask = await browser.request(`/logout?${query}`);
    assert.equal(ask.status, 200);
    assert.match(ask.body, />Sign out</);
    assert.match(ask.body, />Cancel</);
    assert.match(
      ask.headers.get('content-security-policy') ?? '',
      /form-action 'self' https:\/\/rp\.example/,
    );
    const action = TestBrowser.formAction(ask.body);
    const csrf = TestBrowser.csrf(ask.body);
    const cancelled = await browser.request(action, { form: { csrf, decision: 'cancel' } });
    assert.equal(cancelled.status, 200);
    assert.match(cancelled.body, /You are still signed in/);
    assert.equal(await showsSignInPage(browser), false);

    const again = await browser.request(`/logout?${query}`);
    const wrongCsrf = await browser.request(TestBrowser.formAction(again.body), {
      form: { csrf: 'nope', decision: 'logout' },
    });
    assert.equal(wrongCsrf.status, 403);
    assert.equal(await showsSignInPage(browser), false);
    const third = await browser.request(`/logout?${query}`);
    const out = await browser.request(TestBrowser.formAction(third.body), {
      form: { csrf: TestBrowser.csrf(third.body), decision: 'logout' },
    });
    assert.deepEqual([out.status, out.location], [303, 'https://rp.example/signed-out?state=st-9']);
    assert.equal(await showsSignInPage(browser), true);
  });

  it('a stale hint (another sid) asks first; the confirmation page is in the ui_locales language', async () => {
    const { browser, sub } = await signIn(auth, 'stale@example.com');
    const ask = await browser.request(
      `/logout?${new URLSearchParams({ id_token_hint: hint(sub, 'an-older-session'), ui_locales: 'de' })}`,
    );
    assert.equal(ask.status, 200);
    assert.match(ask.body, />Abmelden</);
    assert.match(ask.body, />Abbrechen</);
    assert.equal(await showsSignInPage(browser), false);
  });

  it('with a hint of the current session (expired is fine) ends it at once, redirects with state, and notifies the apps of the session over the back channel', async () => {
    const { browser, sub, sid } = await signIn(auth, 'ends@example.com');
    notices();
    signed.length = 0;
    const res = await browser.request(
      `/logout?${new URLSearchParams({
        id_token_hint: hint(sub, sid),
        post_logout_redirect_uri: 'https://rp.example/signed-out',
        state: 'st-2',
      })}`,
    );
    assert.deepEqual([res.status, res.location], [303, 'https://rp.example/signed-out?state=st-2']);
    assert.match(res.headers.get('cache-control') ?? '', /no-store/);
    assert.equal(await showsSignInPage(browser), true, 'the next /authorize shows the sign-in page');
    assert.deepEqual(signed, [{ issuer: ISSUER, audience: 'client-1', sub, sid, ttlS: 120, alg: '' }]);
    const [notice, ...more] = notices();
    assert.equal(more.length, 0);
    assert.equal(notice?.clientId, 'client-1');
    assert.equal(notice?.tenantId, 'tenant-1');
    assert.equal(notice?.backchannelLogoutUri, 'https://rp.example/backchannel-logout');
    assert.equal(notice?.logoutToken, 'logout-token-1');
    assert.ok((notice?.expiresAtMs ?? 0) > Date.now());
  });

  it('POST works as GET; with no post_logout_redirect_uri the browser sees "You are signed out"', async () => {
    const { browser, sub, sid } = await signIn(auth, 'post@example.com');
    const res = await browser.request('/logout', { form: { id_token_hint: hint(sub, sid) } });
    assert.equal(res.status, 200);
    assert.match(res.body, /You are signed out/);
    assert.equal(await showsSignInPage(browser), true);
  });

  it('keeps the sid across single sign-on, so one logout token names the session every app saw', async () => {
    const { browser, sid } = await signIn(auth, 'sso@example.com');
    const second = await browser.request(authorizePath({ state: 'st-sso' }));
    const location =
      second.status === 303 ? (await browser.request(second.location)).location : second.location;
    assert.match(location, /^https:\/\/rp\.example\/cb\?code=/, 'single sign-on, no page');
    assert.equal(auth.issued.at(-1)?.claims?.sid, sid);
  });

  it('refuses repeated parameters and a redirect URI without a client', async () => {
    const repeated = await fetch(`${auth.base}/logout?client_id=client-1&client_id=client-2`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(repeated.status, 400);
    assert.equal(((await repeated.json()) as OAuthError).error, 'invalid_request');
    const noClient = await fetch(
      `${auth.base}/logout?${new URLSearchParams({ post_logout_redirect_uri: 'https://rp.example/signed-out' })}`,
      { redirect: 'manual' },
    );
    assert.equal(noClient.status, 400);
    assert.equal(noClient.headers.get('location'), null);
  });
});
