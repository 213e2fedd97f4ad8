import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { assetFiles } from '../asset-files';
import { forms, fullViews, texts, visibleText } from '../page-fixtures';
import { createPageRenderer } from '../renderer';

const renderer = createPageRenderer();
const view = fullViews['enroll-passkey'];

describe('enroll-passkey page', () => {
  it.each(LOCALES)(
    'renders in %s: the creation box for the script, and Cancel as one POST form',
    (locale) => {
      const html = renderer.render('enroll-passkey', locale, view);
      const [form, ...others] = forms(html);
      assert.equal(others.length, 0);
      assert.equal(form?.attrs.method, 'post');
      assert.equal(form?.attrs.action, '/enroll/flow/f1/cancel');
      assert.match(
        html,
        /data-passkey-create data-options-url="\/enroll\/flow\/f1\/passkey\/create-options" data-verify-url="\/enroll\/flow\/f1\/passkey\/create" data-csrf="csrf-1"/,
      );
    },
  );

  it('has the English heading, Create a passkey, Cancel and the phone hook, and loads the passkey script', () => {
    const html = renderer.render('enroll-passkey', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Add this device']);
    assert.match(visibleText(html), /Acme Shop asks you to add this device/);
    assert.match(html, /<button type="button" data-passkey-button hidden>Create a passkey<\/button>/);
    assert.deepEqual(forms(html)[0]!.buttons, ['Cancel']);
    assert.match(html, /<a href="\/enroll\/flow\/f1\/phone">Add a phone instead<\/a>/);
    const script = assetFiles().get('passkeys.js')!;
    assert.ok(html.includes(`<script src="/assets/${script.hashedName}" defer></script>`));
  });

  it('shows no phone link until the desktop-to-mobile hook gives one, and refuses a URL off this origin', () => {
    const { phoneUrl: _none, ...withoutPhone } = view;
    assert.doesNotMatch(renderer.render('enroll-passkey', 'en', withoutPhone), /Add a phone instead/);
    assert.throws(() =>
      renderer.render('enroll-passkey', 'en', { ...view, cancelAction: 'https://evil.example/x' }),
    );
  });
});
