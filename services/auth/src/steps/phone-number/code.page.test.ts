import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { forms, texts, visibleText } from '../../pages/page-fixtures';
import { pageUnderTest } from '../../testing/page-under-test';

const page = pageUnderTest('phone-code');

describe('phone-code page', () => {
  page.inEachLocale(
    'renders in %s a POST form for the code, one for a new code, and a link to change the number',
    (html) => {
      const [form, resend, ...others] = forms(html);
      assert.equal(others.length, 0);
      assert.equal(form?.attrs.action, '/flow/f1/phone-code');
      assert.equal(resend?.attrs.action, '/flow/f1/phone-code/resend');
      assert.match(html, /href="\/flow\/f1\/phone"/);
    },
  );

  it('names the number, the SMS code field, Verify, and the attempts left', () => {
    const html = page.render('en');
    assert.deepEqual(texts(html, 'h1'), ['Enter the code from the text message']);
    assert.deepEqual(texts(html, 'label'), ['SMS code']);
    assert.deepEqual(forms(html)[0]!.buttons, ['Verify']);
    assert.match(visibleText(html), /We sent a 6-digit code to \+41791234567\./);
    assert.match(visibleText(html), /That code is not right\. .* 2 attempts left\./);
  });
});
