import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { assetFiles } from '../asset-files';
import { forms, fullViews, texts, visibleText } from '../page-fixtures';
import { createPageRenderer } from '../renderer';

const renderer = createPageRenderer();
const view = fullViews['register-passkey'];

describe('register-passkey page', () => {
  it.each(LOCALES)(
    'renders in %s: the creation box for the script, and Not now as one POST form',
    (locale) => {
      const html = renderer.render('register-passkey', locale, view);
      const [form, ...others] = forms(html);
      assert.equal(others.length, 0);
      assert.equal(form?.attrs.action, '/registration/r1/not-now');
      assert.match(
        html,
        /data-passkey-create data-options-url="\/registration\/r1\/passkey\/create-options" data-verify-url="\/registration\/r1\/passkey\/create" data-csrf="csrf-1"/,
      );
    },
  );

  it('names the buttons Create a passkey and Not now in English, as the passkey offer does, and loads its script', () => {
    const html = renderer.render('register-passkey', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Secure your account']);
    assert.match(visibleText(html), /Your email address ada@example\.com is verified/);
    assert.match(visibleText(html), /Welcome to Acme Bank\./);
    assert.match(html, /<button type="button" data-passkey-button hidden>Create a passkey<\/button>/);
    assert.deepEqual(forms(html)[0]!.buttons, ['Not now']);
    const script = assetFiles().get('passkeys.js')!;
    assert.ok(html.includes(`<script src="/assets/${script.hashedName}" defer></script>`));
  });
});
