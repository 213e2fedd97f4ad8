import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, tags, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews['mobile-qr'];
const render = (locale: (typeof LOCALES)[number] = 'en', v = view) => renderer.render('mobile-qr', locale, v);

describe('mobile-qr page (desktop to mobile)', () => {
  it.each(LOCALES)(
    'renders in %s with the QR as an image named in its language and the waiting URLs',
    (locale) => {
      const html = render(locale);
      const img = tags(html, 'img')[0];
      assert.equal(img?.alt, { en: 'QR code', de: 'QR-Code', fr: 'Code QR' }[locale]);
      const box = tags(html, 'div').find((div) => div['data-status-url']);
      assert.deepEqual(
        [box?.['data-status-url'], box?.['data-continue-url'], box?.['data-expires-at']],
        ['/flow/f1/mobile/status', '/flow/f1/mobile/next', '1900000000000'],
      );
    },
  );

  it('shows the server-drawn SVG as a base64 data: URL (no inline markup under the strict CSP)', () => {
    const src = tags(render(), 'img')[0]?.src ?? '';
    assert.match(src, /^data:image\/svg\+xml;base64,/);
    assert.equal(Buffer.from(src.split(',')[1] ?? '', 'base64').toString(), view.qrSvg);
  });

  it('offers the link as text for people who cannot scan, the 30 s, and the aux link with its title', () => {
    const html = render();
    assert.deepEqual(texts(html, 'h1'), ['Sign in with your phone']);
    assert.match(visibleText(html), /within 30 seconds, then sign in to Acme Shop on your phone/);
    assert.ok(tags(html, 'a').some((a) => a.href === '/m/abc'));
    assert.ok(texts(html, 'a').includes('https://auth.example/m/abc'));
    assert.ok(tags(html, 'a').some((a) => a.href === 'https://help.acme.example/phone/'));
    assert.ok(texts(html, 'a').includes('Other ways to sign in'));
  });

  it('names the aux link "More options" without a title, and drops a link that is not https ending in /', () => {
    const untitled = render('en', { ...view, auxLink: { href: 'https://help.acme.example/x/' } });
    assert.ok(texts(untitled, 'a').includes('More options'));
    const bad = render('en', { ...view, auxLink: { href: 'javascript:alert(1)//' } });
    assert.ok(!tags(bad, 'a').some((a) => a.href?.startsWith('javascript')));
  });

  it('offers an email code instead (a form with the CSRF token) after the automatic QR', () => {
    const [form] = forms(render());
    assert.equal(form?.attrs.action, '/flow/f1/mobile/email-instead');
    assert.deepEqual(form?.buttons, ['Use an email code instead']);
  });

  it('once the phone opened the link shows no QR, only the wait', () => {
    const html = render('en', { ...view, opened: true });
    assert.equal(tags(html, 'img').length, 0);
    assert.match(visibleText(html), /Your phone opened the link\. Finish signing in there/);
  });

  it('loads flow-wait.js (the magic-link wait) and carries the expired message hidden', () => {
    const html = render();
    assert.match(tags(html, 'script')[0]?.src ?? '', /^\/assets\/flow-wait\.[0-9a-f]{10}\.js$/);
    assert.match(html, /role="alert" data-when="expired" hidden>/);
  });

  it('for an enrollment names the page Add a phone, asks for a passkey on the phone, and says so when opened', () => {
    const html = render('en', { ...view, purpose: 'enroll' });
    assert.deepEqual(texts(html, 'h1'), ['Add a phone']);
    assert.match(visibleText(html), /within 30 seconds, then create a passkey for Acme Shop on your phone/);
    const opened = render('en', { ...view, purpose: 'enroll', opened: true });
    assert.match(visibleText(opened), /Your phone opened the link\. Create the passkey there/);
    assert.match(opened, /This request to add a device has expired/);
  });

  it('for a registration names the page Create your passkey on your phone', () => {
    const html = render('en', { ...view, purpose: 'register' });
    assert.deepEqual(texts(html, 'h1'), ['Create your passkey on your phone']);
    assert.match(visibleText(html), /then create a passkey for Acme Shop on your phone/);
    assert.match(html, /This registration has expired\. Ask for a new invitation\./);
  });
});
