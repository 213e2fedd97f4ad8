import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { TestBrowser, authorizePath } from '../testing/hosted-test-client';
import { type FeedbackAuth, startFeedbackAuth } from '../testing/session-feedback';
import { startedForSuite } from '../testing/suite';

/** bound_to (spec 4.2, issue 9) over HTTP: only an authenticator confirmed for the user and app completes. */
describe('bound_to: device_not_bound unless the login’s authenticator is confirmed for that user and app', () => {
  const auth = startedForSuite(() => startFeedbackAuth());

  /** A user confirmed (session feedback) with `alias` on a browser; returns that browser and the user's sub. */
  async function confirmed(email: string, alias?: string) {
    const { browser } = await auth.emailSignIn(email);
    const sub = auth.issued.at(-1)!.claims!.sub;
    assert.equal((await auth.feedback(auth.accessTokenFor(), alias ? { alias } : {})).status, 200);
    return { browser, sub };
  }

  const refused = (location: string) => {
    const url = new URL(location);
    assert.equal(`${url.origin}${url.pathname}`, 'https://rp.example/cb');
    assert.equal(url.searchParams.get('error'), 'device_not_bound');
    assert.equal(url.searchParams.get('state'), 'st-1');
    assert.equal(url.searchParams.get('iss'), 'http://localhost');
    assert.equal(url.searchParams.get('code'), null);
  };
  const completed = (location: string) => assert.match(location, /^https:\/\/rp\.example\/cb\?code=/);

  it('the confirmed browser completes for bound_to alias:<its alias> and sub:<its sub>, with acr app_bound_cred', async () => {
    const { browser, sub } = await confirmed('ok@example.com', 'ok-alias');
    completed(
      (await auth.emailSignIn('ok@example.com', browser, { bound_to: 'alias:ok-alias' })).done.location,
    );
    assert.ok(auth.issued.at(-1)!.claims!.acr.includes('ts.svc.app_bound_cred'));
    completed(
      (await auth.emailSignIn('ok@example.com', browser, { bound_to: `sub:${sub.toUpperCase()}` })).done
        .location,
    );
  });

  it('an email code on a browser never confirmed: device_not_bound, no code issued, device_auth failure recorded', async () => {
    await confirmed('other-browser@example.com', 'ob');
    const before = auth.issued.length;
    const { flow, done } = await auth.emailSignIn('other-browser@example.com', undefined, {
      bound_to: 'alias:ob',
    });
    refused(done.location);
    assert.equal(auth.issued.length, before);
    const event = auth.eventsOf(flow.replace('/flow/', '')).find((e) => e.action === 'device_auth');
    assert.equal(event?.status, 'failure');
    assert.match(event?.failureReason ?? '', /^device_not_bound/);
  });

  it('an unknown alias: device_not_bound', async () => {
    const { browser } = await confirmed('unknown@example.com', 'known');
    refused(
      (await auth.emailSignIn('unknown@example.com', browser, { bound_to: 'alias:nobody' })).done.location,
    );
  });

  it('the alias or sub of another user, even on this user’s confirmed browser: device_not_bound', async () => {
    const { browser } = await confirmed('mine@example.com', 'mine');
    const other = await confirmed('theirs@example.com', 'theirs');
    refused(
      (await auth.emailSignIn('mine@example.com', browser, { bound_to: 'alias:theirs' })).done.location,
    );
    refused(
      (await auth.emailSignIn('mine@example.com', browser, { bound_to: `sub:${other.sub}` })).done.location,
    );
  });

  it('a user who never had feedback (unconfirmed membership): device_not_bound for their own sub', async () => {
    const { browser } = await auth.emailSignIn('never@example.com');
    const sub = auth.issued.at(-1)!.claims!.sub;
    refused((await auth.emailSignIn('never@example.com', browser, { bound_to: `sub:${sub}` })).done.location);
  });

  it('the store’s confirmed flag with the device bound (set directly, as the registration flow will) is enough', async () => {
    const { browser } = await auth.emailSignIn('store@example.com');
    const issued = auth.issued.at(-1)!;
    const m = (await auth.users.memberships.get('tenant-1', 'app-1', issued.claims!.sub))!;
    await auth.users.memberships.save({ ...m, confirmed: true, boundDevices: [issued.login!.deviceId] });
    completed(
      (await auth.emailSignIn('store@example.com', browser, { bound_to: `sub:${issued.claims!.sub}` })).done
        .location,
    );
  });

  it('a passkey never confirmed: device_not_bound, though the browser it lives in was confirmed by an email login', async () => {
    const { authenticator, browser } = await auth.withPasskey('pk-unbound@example.com');
    await auth.feedback(auth.accessTokenFor(), { alias: 'pku' }); // confirms the email login (the device)
    const { done } = await auth.passkeySignIn(authenticator, browser, { bound_to: 'alias:pku' });
    refused(done.location);
  });

  it('a confirmed passkey completes, from any browser', async () => {
    const { authenticator, browser } = await auth.withPasskey('pk-bound@example.com');
    await auth.passkeySignIn(authenticator, browser);
    await auth.feedback(auth.accessTokenFor(), { alias: 'pkb' });
    completed((await auth.passkeySignIn(authenticator, undefined, { bound_to: 'alias:pkb' })).done.location);
    assert.ok(auth.issued.at(-1)!.claims!.acr.includes('ts.svc.app_bound_cred'));
  });

  it('single sign-on: the confirmed browser’s session completes; the session of an unconfirmed one does not', async () => {
    const { browser } = await confirmed('sso@example.com', 'sso');
    const again = await browser.request(authorizePath({ scope: 'openid', bound_to: 'alias:sso' }));
    assert.equal(again.status, 303);
    completed((await browser.request(again.location)).location);
    const { browser: unbound } = await auth.emailSignIn('sso@example.com');
    const sso = await unbound.request(authorizePath({ scope: 'openid', bound_to: 'alias:sso' }));
    refused((await unbound.request(sso.location)).location);
  });

  it('checked again at completion: a binding removed while the consent page is open ends with device_not_bound', async () => {
    const { browser, sub } = await confirmed('late@example.com', 'late');
    const page = await browser.request(
      authorizePath({ scope: 'openid email', prompt: 'login', bound_to: 'alias:late' }),
    );
    const csrf = TestBrowser.csrf(page.body);
    const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email: 'late@example.com' } });
    await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor('late@example.com') } });
    assert.match((await browser.request(`${flow}/continue`)).body, /decision/, 'the consent page');
    const m = (await auth.users.memberships.get('tenant-1', 'app-1', sub))!;
    await auth.users.memberships.save({ ...m, boundDevices: [] });
    const before = auth.issued.length;
    refused((await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } })).location);
    assert.equal(auth.issued.length, before);
    assert.equal((await browser.request(flow)).status, 410, 'the flow is over');
  });
});
