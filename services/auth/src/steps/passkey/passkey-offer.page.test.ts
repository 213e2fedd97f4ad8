import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';
import { assertPasskeyButtonAndScript, assertPasskeyCreationBox } from '../../testing/passkey-page';

const renderer = createPageRenderer();
const view = fullViews['passkey-offer'];

describe('passkey-offer page', () => {
  it.each(LOCALES)(
    'renders in %s: the creation box for the script, and Not now as one POST form',
    (locale) => {
      const html = renderer.render('passkey-offer', locale, view);
      const [form, ...others] = forms(html);
      assert.equal(others.length, 0);
      assert.equal(form?.attrs.method, 'post');
      assert.equal(form?.attrs.action, '/flow/f1/passkey/not-now');
      assertPasskeyCreationBox(html, '/flow/f1');
    },
  );

  it('has the English heading and buttons Create a passkey and Not now, and loads the passkey script', () => {
    const html = renderer.render('passkey-offer', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Sign in faster next time']);
    assert.match(visibleText(html), /For ada@example\.com/);
    assert.deepEqual(forms(html)[0]!.buttons, ['Not now']);
    assertPasskeyButtonAndScript(html);
  });

  it('refuses a URL that is not a same-origin path', () => {
    assert.throws(() =>
      renderer.render('passkey-offer', 'en', { ...view, verifyUrl: 'https://evil.example/x' }),
    );
  });
});
