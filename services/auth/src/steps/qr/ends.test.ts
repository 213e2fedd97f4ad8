import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { setDeviceAccess } from '../../testing/device-access';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import {
  desktopAtQr,
  matchCodeOf,
  mobileLinkOf,
  phoneBrowser,
  phoneByCode,
  phoneOpens,
  phonePicks,
} from '../../testing/qr';
import { startedForSuite } from '../../testing/suite';

const status = async (browser: TestBrowser, flow: string) =>
  JSON.parse((await browser.request(`${flow}/mobile/status`)).body).state as string;

/** Desktop to mobile over HTTP: desktop flows that end without the phone's proof. */
/**
 * The phone's sign-in is refused (403, "Sign-in not possible") and its desktop, told it is ready, goes on to
 * its end at the RP: the URL it is sent to.
 */
async function refusedOnPhone(phone: TestBrowser, phoneFlow: string, desktop: TestBrowser, flow: string) {
  const refused = await phone.request(`${phoneFlow}/continue`);
  assert.equal(refused.status, 403);
  assert.match(refused.body, /<h1>Sign-in not possible<\/h1>/);
  assert.equal(await status(desktop, flow), 'ready');
  return new URL((await desktop.request(`${flow}/mobile/next`)).location);
}

describe('desktop to mobile: a phone in a blocked country', () => {
  const auth = startedForSuite(() => startAuth({ client: { blockedCountries: ['US'] }, behindProxy: true }));

  it('refuses on the phone and ends the desktop with risk_access_restriction', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    const phone = phoneBrowser(auth);
    phone.headers['x-forwarded-for'] = '8.8.8.8'; // US in the bundled IP-location database
    const phoneFlow = await phoneOpens(phone, link);
    await phoneByCode(auth, phone, phoneFlow, 'abroad@example.com');
    const end = await refusedOnPhone(phone, phoneFlow, desktop, flow);
    assert.deepEqual(
      [end.searchParams.get('error'), end.searchParams.get('state')],
      ['risk_access_restriction', 'st-1'],
    );
    assert.equal(auth.issued.length, 0);
  });
});

describe('desktop to mobile: a desktop an admin blocked for the user', () => {
  const auth = startedForSuite(() => startAuth());

  it('refuses on the phone and ends the desktop with access_denied, though the phone itself is not blocked', async () => {
    const email = 'desk-blocked@example.com';
    // The person signed in on this desktop before, so it is a device of theirs an admin can block.
    const desktop = auth.browser();
    const first = await desktop.request(authorizePath({ scope: 'openid' }));
    const flow0 = TestBrowser.formAction(first.body).replace(/\/email$/, '');
    const csrf0 = TestBrowser.csrf(first.body);
    await desktop.request(`${flow0}/email`, { form: { csrf: csrf0, email } });
    const proven = await desktop.request(`${flow0}/code`, {
      form: { csrf: csrf0, code: auth.codeFor(email) },
    });
    const signedIn = await desktop.request(proven.location);
    assert.match(signedIn.location, /^https:\/\/rp\.example\/cb\?code=/);
    await setDeviceAccess(auth, email, false);
    const issuedBefore = auth.issued.length;

    const first2 = await desktop.request(authorizePath({ scope: 'openid', prompt: 'login' }));
    const flow = TestBrowser.formAction(first2.body).replace(/\/email$/, '');
    await desktop.request(`${flow}/mobile`, { form: { csrf: TestBrowser.csrf(first2.body) } });
    const qrPage = (await desktop.request(flow)).body;
    const link = mobileLinkOf(qrPage);
    const phone = phoneBrowser(auth);
    const phoneFlow = await phoneOpens(phone, link);
    await phonePicks(phone, phoneFlow, matchCodeOf(qrPage));
    await phoneByCode(auth, phone, phoneFlow, email);
    const end = await refusedOnPhone(phone, phoneFlow, desktop, flow);
    assert.deepEqual(
      [
        end.searchParams.get('error'),
        end.searchParams.get('error_description'),
        end.searchParams.get('state'),
      ],
      ['access_denied', 'this device is blocked for this user', 'st-1'],
    );
    assert.equal(auth.issued.length, issuedBefore, 'no code for a blocked desktop');
  });
});

describe('desktop to mobile: the QR’s open time (1 s here; 30 s by default, proven by the e2e)', () => {
  const auth = startedForSuite(() => startAuth({ env: { SESAME_QR_OPEN_TIMEOUT_S: '1' } }));
  const pastOpenTime = () => new Promise((r) => setTimeout(r, 1100));

  it('an unopened QR no longer ends the flow: the tab is led to "The code expired", the RP gets nothing', async () => {
    const { desktop, flow } = await desktopAtQr(auth);
    assert.equal(await status(desktop, flow), 'pending');
    await pastOpenTime();
    assert.equal(await status(desktop, flow), 'ready', 'the waiting tab moves on');
    assert.equal(
      (await desktop.request(`${flow}/mobile/next`)).location,
      flow,
      'to the flow’s page, not the RP',
    );
    const expired = await desktop.request(flow);
    assert.equal(expired.status, 200);
    assert.match(expired.body, /<h1>The code expired<\/h1>/);
    assert.doesNotMatch(expired.body, /data-mobile-link/, 'no QR drawn by itself');
    assert.equal(auth.issued.length, 0);
  });

  it('Back to <app> on the expired code ends with unsupported_browser, the true description, state and iss', async () => {
    const { desktop, flow } = await desktopAtQr(auth);
    await pastOpenTime();
    const expired = await desktop.request(flow);
    const back = await desktop.request(`${flow}/mobile/back`, {
      form: { csrf: TestBrowser.csrf(expired.body) },
    });
    assert.equal(back.status, 303);
    const end = new URL(back.location);
    assert.deepEqual(Object.fromEntries(end.searchParams), {
      error: 'unsupported_browser',
      error_description: 'the QR link was not opened within 1 second',
      state: 'st-1',
      iss: 'http://localhost',
    });
    assert.equal((await desktop.request(flow)).status, 410);
  });

  it('a link opened after the open time shows the clear link-invalid page and starts nothing', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    await pastOpenTime();
    const late = await phoneBrowser(auth).request(link);
    assert.equal(late.status, 410);
    assert.match(late.body, /<h1>Link not valid<\/h1>/);
    assert.equal((await desktop.request(`${flow}/mobile/next`)).location, flow);
    assert.match((await desktop.request(flow)).body, /<h1>The code expired<\/h1>/);
  });

  it('a QR the phone opened in time no longer runs out: the desktop keeps waiting for the phone', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    await phoneOpens(phoneBrowser(auth), link);
    await pastOpenTime();
    assert.equal(await status(desktop, flow), 'pending');
    assert.equal((await desktop.request(`${flow}/mobile/next`)).location, flow);
  });
});
