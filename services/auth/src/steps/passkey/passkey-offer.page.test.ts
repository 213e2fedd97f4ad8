import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { forms, texts, visibleText } from '../../pages/page-fixtures';
import { assertOnePostForm, pageUnderTest } from '../../testing/page-under-test';
import { assertPasskeyButtonAndScript, assertPasskeyCreationBox } from '../../testing/passkey-page';

const page = pageUnderTest('passkey-offer');

describe('passkey-offer page', () => {
  page.inEachLocale(
    'renders in %s: the creation box for the script, and Not now as one POST form',
    (html) => {
      assertOnePostForm(html, '/flow/f1/passkey/not-now');
      assertPasskeyCreationBox(html, '/flow/f1');
    },
  );

  it('has the English heading and buttons Create a passkey and Not now, and loads the passkey script', () => {
    const html = page.render('en');
    assert.deepEqual(texts(html, 'h1'), ['Sign in faster next time']);
    assert.match(visibleText(html), /For ada@example\.com/);
    assert.deepEqual(forms(html)[0]!.buttons, ['Not now']);
    assertPasskeyButtonAndScript(html);
  });

  it('refuses a URL that is not a same-origin path', () => {
    assert.throws(() => page.render('en', { ...page.view, verifyUrl: 'https://evil.example/x' }));
  });
});
