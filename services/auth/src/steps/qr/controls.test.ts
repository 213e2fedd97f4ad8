import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { decode, texts } from '../../pages/page-fixtures';
import { authWithEvents } from '../../testing/auth-with-events';
import type { startAuth } from '../../testing/hosted-test-client';
import { desktopAtQr, mobileLinkOf, phoneBrowser, phoneOpens } from '../../testing/qr';

type Auth = Awaited<ReturnType<typeof startAuth>>;

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** The QR page's countdown, Show a new code and Cancel (issue 25), on the desktop's side. */
describe('desktop to mobile: the QR page controls', () => {
  const { auth, eventsOf } = authWithEvents();

  it('counts down the real open time, with the script, Show a new code and Cancel', async () => {
    const before = Date.now();
    const { page, flow } = await desktopAtQr(auth);
    const openBy = Number(/data-open-by="(\d+)"/.exec(page.body)?.[1]);
    assert.ok(openBy >= before + 30_000 && openBy <= Date.now() + 30_000, 'now + the 30 s open time');
    assert.match(page.body, /30 seconds left to scan this code\./);
    assert.match(page.body, /<script src="\/assets\/qr-controls\.[0-9a-f]{10}\.js" defer><\/script>/);
    assert.match(
      page.body,
      new RegExp(`action="${flow}/mobile/new-code"[^>]*>[\\s\\S]*?>Show a new code</button>`),
    );
    assert.match(page.body, new RegExp(`action="${flow}/mobile/cancel"[^>]*>[\\s\\S]*?>Cancel</button>`));
  });

  it('Show a new code draws a new one-time link (the old one is dead) and records new_qr_generated', async () => {
    const { desktop, page, flow, link } = await desktopAtQr(auth);
    const flowId = flow.replace('/flow/', '');
    const generatedBefore = eventsOf(flowId).filter((e) => e.action === 'new_qr_generated').length;
    const renewed = await desktop.request(`${flow}/mobile/new-code`, { form: { csrf: csrfOf(page.body) } });
    assert.deepEqual([renewed.status, renewed.location], [303, flow]);
    const again = await desktop.request(flow);
    const fresh = mobileLinkOf(again.body);
    assert.ok(fresh && fresh !== link, 'a new link');
    assert.equal(
      eventsOf(flowId).filter((e) => e.action === 'new_qr_generated').length,
      generatedBefore + 1,
      'one new_qr_generated for the click',
    );
    const phone = phoneBrowser(auth);
    assert.equal((await phone.request(link)).status, 410, 'the old link no longer opens');
    await phoneOpens(phoneBrowser(auth), fresh);
  });

  it('Cancel goes back to the sign-in page; the sign-in goes on', async () => {
    const { desktop, page, flow } = await desktopAtQr(auth);
    const cancelled = await desktop.request(`${flow}/mobile/cancel`, { form: { csrf: csrfOf(page.body) } });
    assert.deepEqual([cancelled.status, cancelled.location], [303, flow]);
    const signIn = await desktop.request(flow);
    assert.equal(signIn.status, 200);
    assert.deepEqual(texts(signIn.body, 'h1'), ['Sign in']);
    assert.match(decode(signIn.body), /Use my phone/, 'the phone stays a choice');
  });

  it('once the phone opened the link, no new code or cancel: only the wait', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    await phoneOpens(phoneBrowser(auth), link);
    const waiting = await desktop.request(flow);
    assert.doesNotMatch(waiting.body, /Show a new code|mobile\/cancel|data-open-by/);
    const csrf = csrfOf(waiting.body);
    await desktop.request(`${flow}/mobile/new-code`, { form: { csrf } });
    assert.doesNotMatch((await desktop.request(flow)).body, /data-mobile-link/, 'the opened QR stays opened');
  });
});
