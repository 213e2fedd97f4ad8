import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { forms, texts, visibleText } from '../../pages/page-fixtures';
import { pageUnderTest } from '../../testing/page-under-test';
import { assertPasskeyButtonAndScript, assertPasskeyCreationBox } from '../../testing/passkey-page';

const page = pageUnderTest('register-passkey');

describe('register-passkey page', () => {
  page.inEachLocale(
    'renders in %s: the creation box for the script, Use my phone and Not now as POST forms',
    (html) => {
      assert.deepEqual(
        forms(html).map((f) => f.attrs.action),
        ['/registration/r1/mobile', '/registration/r1/not-now'],
      );
      assertPasskeyCreationBox(html, '/registration/r1');
    },
  );

  it('names the buttons Create a passkey, Use my phone and Not now in English, and loads the passkey script', () => {
    const html = page.render('en');
    assert.deepEqual(texts(html, 'h1'), ['Secure your account']);
    assert.match(visibleText(html), /Your email address ada@example\.com is verified/);
    assert.match(visibleText(html), /Welcome to Acme Bank\./);
    assert.deepEqual(
      forms(html).map((f) => f.buttons),
      [['Use my phone'], ['Not now']],
    );
    assertPasskeyButtonAndScript(html);
  });

  it('on the phone (no Not now, no Use my phone) has no form, and its error asks only to try again', () => {
    const { notNowAction: _n, mobileAction: _m, ...phone } = page.view;
    const html = page.render('en', phone);
    assert.equal(forms(html).length, 0);
    assert.match(html, /data-passkey-error hidden>The passkey was not created\. Try again\.<\/p>/);
  });
});
