import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { decode, texts, visibleText } from '../../pages/page-fixtures';
import { emailStep, signIn } from '../../testing/email-sign-in';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PAYMENT = JSON.stringify({
  id_token: {
    svc_psd2_transaction: {
      value: { display_data: { payee: 'ACME Energy', payment_amount: '€ 42.00', payment_method: 'Visa' } },
    },
  },
});
const APPROVAL = JSON.stringify({
  id_token: {
    svc_approval: {
      value: {
        display_data: {
          main_attribute: { label: 'Plan', value: 'Premium' },
          attributes: [{ label: 'From', value: 'May', icon: 'Calendar' }],
        },
      },
    },
  },
});

/** Signs in by code (consent approved) and returns the browser, now with a single sign-on session. */
const signedIn = async (auth: Auth, email: string) => (await signIn(auth, email)).browser;

/** A second /authorize in a signed-in browser: single sign-on proves it; the consent page it lands on. */
async function consentAfterSso(browser: TestBrowser, extra: Record<string, string>) {
  const again = await browser.request(authorizePath(extra));
  assert.equal(again.status, 303);
  const page = await browser.request(again.location);
  assert.equal(page.status, 200);
  return { page, flow: again.location.replace(/\/continue$/, '') };
}

describe('consent titles, granted scopes and "Not you?" (issue 25)', () => {
  const auth = startedForSuite(() => startAuth());

  it('a plain sign-in asks to see the email address', async () => {
    const { browser, csrf, flow } = await emailStep(auth, 'plain@example.com');
    await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor('plain@example.com') } });
    const consent = await browser.request(`${flow}/continue`);
    assert.deepEqual(texts(consent.body, 'h1'), ['Allow Shop to see your email address']);
    assert.doesNotMatch(consent.body, /Not you\?/, 'the person just proved who they are');
  });

  it('a payment names its payee and lists no scope already granted; Not you? after single sign-on', async () => {
    const browser = await signedIn(auth, 'payer@example.com');
    const { page, flow } = await consentAfterSso(browser, { claims: PAYMENT, state: 'st-pay' });
    assert.deepEqual(texts(page.body, 'h1'), ['Approve a payment to ACME Energy']);
    assert.doesNotMatch(
      visibleText(page.body),
      /Your email address/,
      'email was granted at the first sign-in',
    );
    assert.match(
      page.body,
      new RegExp(`<form method="post" action="${flow}/select-account" class="not-you">`),
    );
    assert.match(
      page.body,
      /<button type="submit" name="choice" value="other" class="link">Not you\?<\/button>/,
    );
  });

  it('an approval says "Approve a change" and lays every row out alike', async () => {
    const browser = await signedIn(auth, 'approver@example.com');
    const { page } = await consentAfterSso(browser, { claims: APPROVAL });
    assert.deepEqual(texts(page.body, 'h1'), ['Approve a change']);
    const rows = [...page.body.matchAll(/<div( class="main-attribute")?><dt>(<img|<span class="icon")/g)];
    assert.equal(rows.length, 2, 'the main attribute and the attribute: one row shape, an icon place each');
  });

  it('"Not you?" forgets the single sign-on proof: the sign-in page, and the code of someone else signs in', async () => {
    const browser = await signedIn(auth, 'first@example.com');
    const { page, flow } = await consentAfterSso(browser, { claims: PAYMENT });
    const csrf = TestBrowser.csrf(page.body);
    const other = await browser.request(`${flow}/select-account`, { form: { csrf, choice: 'other' } });
    assert.deepEqual([other.status, other.location], [303, flow]);
    const signIn = await browser.request(flow);
    assert.match(visibleText(signIn.body), /Email address/);
    assert.doesNotMatch(signIn.body, /first@example\.com/);
    await browser.request(`${flow}/email`, { form: { csrf, email: 'second@example.com' } });
    const code = await browser.request(`${flow}/code`, {
      form: { csrf, code: auth.codeFor('second@example.com') },
    });
    assert.equal(code.location, `${flow}/continue`);
    const consent = await browser.request(`${flow}/continue`);
    assert.match(visibleText(consent.body), /Signed in as second@example\.com/);
  });
});

describe('a way forward from every error page (issue 25)', () => {
  const auth = startedForSuite(() => startAuth());

  it('another browser opening the flow gets "Back to Shop": the RP with access_denied, state and iss', async () => {
    const { flow } = await emailStep(auth, 'moved@example.com');
    const other = auth.browser();
    const page = await other.request(flow);
    assert.equal(page.status, 403);
    assert.deepEqual(texts(page.body, 'h1'), ['Different browser']);
    const href = /<a class="button" href="([^"]+)">Back to Shop<\/a>/
      .exec(page.body)?.[1]
      ?.replace(/&amp;/g, '&');
    assert.ok(href, 'a Back to Shop link');
    const url = new URL(decode(href));
    assert.equal(url.origin + url.pathname, 'https://rp.example/cb');
    assert.equal(url.searchParams.get('error'), 'access_denied');
    assert.equal(url.searchParams.get('state'), 'st-1');
    assert.equal(url.searchParams.get('iss'), 'http://localhost');
    assert.match(url.searchParams.get('error_description') ?? '', /different browser/);
  });

  it('the wait for a magic link has "Back to Shop" for when the sign-in expires (the page script shows it then)', async () => {
    const { browser, csrf, flow } = await emailStep(auth, 'waiting@example.com');
    assert.equal((await browser.request(`${flow}/magic-link`, { form: { csrf } })).status, 303);
    const page = await browser.request(flow);
    const href =
      /<p class="way-forward" data-when="expired" hidden><a class="button" href="([^"]+)">Back to Shop<\/a>/.exec(
        page.body,
      )?.[1];
    assert.ok(href, 'a hidden Back to Shop for the expired state');
    const url = new URL(decode(href));
    assert.deepEqual(
      [
        url.searchParams.get('error'),
        url.searchParams.get('state'),
        url.searchParams.get('error_description'),
      ],
      ['access_denied', 'st-1', 'the sign-in expired before it was completed'],
    );
  });

  it('an unknown path is the hosted "Page not found" in HTML, JSON only for a client asking for JSON', async () => {
    const page = await fetch(`${auth.base}/no/such/page`, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    assert.deepEqual(texts(html, 'h1'), ['Page not found']);
    assert.match(html, /<link rel="stylesheet" href="\/assets\/sesame\.[0-9a-f]{10}\.css">/);
    const json = await fetch(`${auth.base}/no/such/page`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 404);
    assert.deepEqual(await json.json(), { error: 'not_found' });
  });

  it('the root URL outside development is not found (no welcome page)', async () => {
    const root = await fetch(`${auth.base}/`, { headers: { accept: 'text/html' } });
    assert.equal(root.status, 404);
  });
});

describe('the root URL of a development setup (issue 25)', () => {
  const auth = startedForSuite(() =>
    startAuth({ env: { SESAME_ENV: 'development', SESAME_ADMIN_URL: 'http://localhost:9999' } }),
  );

  it('is a welcome page linking to the console on the admin URL, the discovery document and the outbox', async () => {
    const root = await fetch(`${auth.base}/`, { headers: { accept: 'text/html' } });
    assert.equal(root.status, 200);
    const html = await root.text();
    const links = [...html.matchAll(/<a href="([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(links, [
      'http://localhost:9999/console/',
      '/.well-known/openid-configuration',
      '/dev/mail',
    ]);
  });
});

describe('desktop to mobile on a phone (issue 25)', () => {
  const auth = startedForSuite(() => startAuth());

  it('a phone gets "Use another device" as a small link, a computer "Use my phone"', async () => {
    const phone = auth.browser();
    phone.headers['user-agent'] = IPHONE;
    const onPhone = await phone.request(authorizePath());
    assert.match(onPhone.body, /class="link" formaction="[^"]+\/mobile" formnovalidate>Use another device</);
    assert.doesNotMatch(onPhone.body, /Use my phone/);
    const desk = await auth.browser().request(authorizePath());
    assert.match(desk.body, /class="secondary" formaction="[^"]+\/mobile" formnovalidate>Use my phone</);
    const hinted = auth.browser();
    hinted.headers['sec-ch-ua-mobile'] = '?1';
    assert.match(
      (await hinted.request(authorizePath())).body,
      /Use another device/,
      'the client hint says phone',
    );
    const tablet = auth.browser();
    tablet.headers['user-agent'] = IPHONE;
    tablet.headers['sec-ch-ua-mobile'] = '?0';
    assert.match(
      (await tablet.request(authorizePath())).body,
      /Use my phone/,
      'the hint wins over the user agent',
    );
  });
});
