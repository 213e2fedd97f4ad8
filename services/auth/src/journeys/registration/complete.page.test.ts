import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, tags, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews['register-complete'];
const links = (html: string) => tags(html, 'a').map((a) => a.href);

describe('register-complete page', () => {
  it.each(LOCALES)(
    'renders in %s with the completion link and the way back to the app, no form',
    (locale) => {
      const html = renderer.render('register-complete', locale, view);
      assert.equal(forms(html).length, 0);
      assert.deepEqual(links(html), ['https://bank.example/cb', 'https://bank.example/registered']);
    },
  );

  it('shows the completion text, the link under its label and Continue to the app in English', () => {
    const html = renderer.render('register-complete', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['You are registered']);
    assert.match(visibleText(html), /All set\. Your card is on its way\./);
    assert.deepEqual(texts(html, 'a'), ['Open your account', 'Continue to Acme Bank']);
  });

  it('falls back to the default text and shows the phone-side message only when given', () => {
    const html = renderer.render('register-complete', 'en', { appName: 'Acme Bank', backUrl: view.backUrl });
    assert.match(visibleText(html), /Your account for Acme Bank is ready\./);
    assert.doesNotMatch(html, /go back to your computer/);
  });

  it('on the phone of a desktop-to-mobile registration, says the computer goes on', () => {
    const { backUrl: _, ...phoneView } = view;
    const html = renderer.render('register-complete', 'en', { ...phoneView, onPhone: true });
    assert.match(visibleText(html), /You’re done on this phone\. Your computer continues by itself\./);
    assert.deepEqual(texts(html, 'a'), ['Open your account']);
    assert.doesNotMatch(
      renderer.render('register-complete', 'en', view),
      /Your computer continues/,
      'not on the desktop',
    );
  });

  it.each(['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'not a url'])(
    'never prints %s as a link',
    (url) => {
      const html = renderer.render('register-complete', 'en', {
        ...view,
        link: { url, label: 'x' },
        backUrl: url,
      });
      assert.deepEqual(links(html), []);
    },
  );
});
