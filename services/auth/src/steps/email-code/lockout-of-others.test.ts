import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { createPasskey } from '../../testing/create-passkey';
import { signIn } from '../../testing/email-sign-in';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/** A browser at `ip` (X-Forwarded-For through the test's trusted proxy) types `email`: the answer's status. */
async function askCode(auth: Auth, email: string, ip: string, browser = auth.browser()) {
  browser.headers['x-forwarded-for'] = ip;
  const page = await browser.request(authorizePath({ scope: 'openid', prompt: 'login' }));
  const csrf = TestBrowser.csrf(page.body);
  const sent = await browser.request(TestBrowser.formAction(page.body), { form: { csrf, email } });
  return sent.status;
}

const mailsTo = (auth: Auth, email: string) => auth.outbox.list().filter((m) => m.to === email).length;

/** Strangers at `count` distinct IPs each ask one code for `email`; answers their statuses. */
const flood = (auth: Auth, email: string, count: number, net: string) =>
  Promise.all(Array.from({ length: count }, (_, i) => askCode(auth, email, `${net}.${i + 1}`)));

/** A browser at `ip` that signed in as `email` by code (its session is signed in from then on). */
async function signedInAt(auth: Auth, ip: string, email: string) {
  const browser = auth.browser();
  browser.headers['x-forwarded-for'] = ip;
  await signIn(auth, email, {}, async (_auth, typed, extra) => {
    const first = await browser.request(authorizePath(extra));
    const csrf = TestBrowser.csrf(first.body);
    const action = TestBrowser.formAction(first.body);
    const sent = await browser.request(action, { form: { csrf, email: typed } });
    return { browser, first, sent, csrf, flow: action.replace(/\/email$/, '') };
  });
  return browser;
}

/** Issue 35 item 6: the per-address mail limits must not lock the address's owner out. */
describe('sign-in mail limits do not lock others out (hostile)', () => {
  const auth = startedForSuite(() => startAuth({ behindProxy: true }));

  it('five code requests from IP A do not block the same address from IP B', async () => {
    const email = 'admin-a@example.com';
    for (let i = 0; i < 5; i++) assert.equal(await askCode(auth, email, '203.0.113.1'), 303);
    assert.equal(await askCode(auth, email, '203.0.113.1'), 429, 'IP A is held for this address');
    assert.equal(await askCode(auth, email, '198.51.100.2'), 303, 'IP B is not');
    assert.equal(mailsTo(auth, email), 6);
  });

  it('a distributed flood from many IPs stops at the per-address ceiling', async () => {
    const email = 'admin-b@example.com';
    const answers = await flood(auth, email, 40, '10.20.0');
    // 15 per address and tenant (all of these are one tenant's sign-ins), 30 over all tenants.
    assert.equal(answers.filter((s) => s === 303).length, 15);
    assert.ok(answers.every((s) => s === 303 || s === 429));
    assert.equal(await askCode(auth, email, '198.51.100.3'), 429, 'a new IP is held by the ceiling');
    assert.equal(mailsTo(auth, email), 15);
  });

  it('a browser whose session proved the address still gets codes after strangers filled every window', async () => {
    const email = 'admin-c@example.com';
    // The owner signs in (one mail), then strangers use up the address's windows, this IP's too.
    const owner = await signedInAt(auth, '192.0.2.10', email);
    await flood(auth, email, 40, '10.21.0');
    for (let i = 0; i < 5; i++) await askCode(auth, email, '192.0.2.10');
    assert.equal(await askCode(auth, email, '192.0.2.10'), 429, 'a stranger at the same IP is held');
    const before = mailsTo(auth, email);
    assert.equal(await askCode(auth, email, '192.0.2.10', owner), 303, 'the owner is not');
    assert.equal(mailsTo(auth, email), before + 1);
  });

  it('a browser signed in as another person is a stranger to the address', async () => {
    const email = 'admin-e@example.com';
    const eve = await signedInAt(auth, '192.0.2.30', 'eve@example.com');
    await flood(auth, email, 40, '10.23.0');
    assert.equal(await askCode(auth, email, '192.0.2.30', eve), 429);
    assert.equal(mailsTo(auth, email), 15);
  });

  it('passkey sign-in is not limited by the mail limits of its address', async () => {
    const email = 'admin-d@example.com';
    const browser = auth.browser();
    browser.headers['x-forwarded-for'] = '192.0.2.20';
    const page = await browser.request(authorizePath({ scope: 'openid', prompt: 'login' }));
    const csrf = TestBrowser.csrf(page.body);
    const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email, passkeyCapable: '1' } });
    await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
    await browser.request(`${flow}/continue`);
    const { authenticator } = await createPasskey(browser, flow, csrf);
    await flood(auth, email, 40, '10.22.0');
    assert.equal(await askCode(auth, email, '198.51.100.4'), 429, 'the address takes no more mails');
    const other = auth.browser();
    other.headers['x-forwarded-for'] = '198.51.100.4';
    const again = await other.request(authorizePath({ scope: 'openid', prompt: 'login' }));
    const otherCsrf = TestBrowser.csrf(again.body);
    const otherFlow = TestBrowser.formAction(again.body).replace(/\/email$/, '');
    const options = await other.request(`${otherFlow}/passkey/sign-in-options`, {
      json: { csrf: otherCsrf },
    });
    const response = authenticator.get(JSON.parse(options.body), { origin: 'http://localhost' });
    const answer = await other.request(`${otherFlow}/passkey/sign-in`, {
      json: { csrf: otherCsrf, response },
    });
    assert.equal(answer.status, 200);
    assert.match(
      JSON.parse(answer.body).location,
      new RegExp(`^${otherFlow}/continue$|^https://rp\\.example/cb\\?code=`),
    );
  });
});
