import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { assetFiles } from '../../pages/asset-files';
import { forms, fullViews, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

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
      assert.match(
        html,
        /data-passkey-create data-options-url="\/flow\/f1\/passkey\/create-options" data-verify-url="\/flow\/f1\/passkey\/create" data-csrf="csrf-1"/,
      );
    },
  );

  it('has the English heading and buttons Create a passkey and Not now, and loads the passkey script', () => {
    const html = renderer.render('passkey-offer', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Sign in faster next time']);
    assert.match(visibleText(html), /For ada@example\.com/);
    assert.match(html, /<button type="button" data-passkey-button hidden>Create a passkey<\/button>/);
    assert.deepEqual(forms(html)[0]!.buttons, ['Not now']);
    const script = assetFiles().get('passkeys.js')!;
    assert.ok(html.includes(`<script src="/assets/${script.hashedName}" defer></script>`));
  });

  it('refuses a URL that is not a same-origin path', () => {
    assert.throws(() =>
      renderer.render('passkey-offer', 'en', { ...view, verifyUrl: 'https://evil.example/x' }),
    );
  });
});
