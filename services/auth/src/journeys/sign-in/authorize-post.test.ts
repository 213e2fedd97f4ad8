import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { signIn } from '../../testing/email-sign-in';
import { authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';
import { MAX_RESUBMITTED_QUERY } from './authorize-post';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/** The parameters of authorizePath, as the body of an RP's (or an attacker's) auto-submitted form. */
const paramsOf = (extra: Record<string, string> = {}) =>
  Object.fromEntries(new URL(authorizePath(extra), 'http://x').searchParams);

/** A cross-site POST as a browser sends it: its SameSite=Lax cookies left off. */
async function crossSitePost(auth: Auth, form: Record<string, string>) {
  return fetch(new URL('/authorize', auth.browser().base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
}

const signedIn = async (auth: Auth, email: string) => (await signIn(auth, email)).browser;

/** Issue 26, finding 8: a cross-site POST to /authorize never replaces a live session cookie. */
describe('POST /authorize without the session cookie', () => {
  const auth = startedForSuite(() => startAuth());

  it('sets no cookie and sends the same parameters on as a GET, where the live session signs in', async () => {
    const browser = await signedIn(auth, 'post-sso@example.com');
    const first = auth.issued.at(-1)!;
    const post = await crossSitePost(auth, paramsOf({ state: 'st-post' }));
    assert.equal(post.status, 303);
    assert.equal(post.headers.get('set-cookie'), null);
    assert.equal(post.headers.get('cache-control'), 'no-store');
    const location = post.headers.get('location') ?? '';
    assert.equal(location, authorizePath({ state: 'st-post' }));
    // The browser follows the 303 with a top-level GET, on which its Lax cookies are sent.
    const again = await browser.request(location);
    assert.equal(again.status, 303);
    const done = await browser.request(again.location);
    const url = new URL(done.location);
    assert.equal(url.searchParams.get('state'), 'st-post');
    assert.ok(url.searchParams.get('code'));
    assert.equal(auth.issued.at(-1)?.claims?.sub, first.claims?.sub);
  });

  it('still starts a sign-in for a browser that has no session: the GET shows the first page', async () => {
    const post = await crossSitePost(auth, paramsOf());
    assert.equal(post.status, 303);
    const page = await auth.browser().request(post.headers.get('location') ?? '');
    assert.equal(page.status, 200);
    assert.match(page.body, /name="email"/);
  });

  it('answers a POST that carries the session cookie (same-site) directly', async () => {
    const browser = await signedIn(auth, 'post-same-site@example.com');
    const res = await browser.request('/authorize', { form: paramsOf({ state: 'st-same' }) });
    assert.equal(res.status, 303);
    assert.match(res.location, /^\/flow\/[\w-]+\/continue$/);
  });

  it('refuses parameters too long for a URL with the error page, setting no cookie', async () => {
    const post = await crossSitePost(auth, paramsOf({ state: 'x'.repeat(MAX_RESUBMITTED_QUERY) }));
    assert.equal(post.status, 400);
    assert.equal(post.headers.get('set-cookie'), null);
    assert.match(post.headers.get('content-type') ?? '', /text\/html/);
  });
});
