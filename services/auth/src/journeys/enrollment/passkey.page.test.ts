import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';
import { assertPasskeyButtonAndScript, assertPasskeyCreationBox } from '../../testing/passkey-page';

const renderer = createPageRenderer();
const view = fullViews['enroll-passkey'];

describe('enroll-passkey page', () => {
  it.each(LOCALES)(
    'renders in %s: the creation box for the script, Add a phone instead and Cancel as POST forms',
    (locale) => {
      const html = renderer.render('enroll-passkey', locale, view);
      assert.deepEqual(
        forms(html).map((f) => [f.attrs.method, f.attrs.action]),
        [
          ['post', '/enroll/flow/f1/phone'],
          ['post', '/enroll/flow/f1/cancel'],
        ],
      );
      assertPasskeyCreationBox(html, '/enroll/flow/f1');
    },
  );

  it('has the English heading, Create a passkey, Add a phone instead, Cancel, and loads the passkey script', () => {
    const html = renderer.render('enroll-passkey', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Add this device']);
    assert.match(visibleText(html), /Acme Shop asks you to add this device/);
    assert.deepEqual(
      forms(html).map((f) => f.buttons),
      [['Add a phone instead'], ['Cancel']],
    );
    assertPasskeyButtonAndScript(html);
  });

  it('shows no Add a phone instead without phoneUrl, and refuses a URL off this origin', () => {
    const { phoneUrl: _none, ...withoutPhone } = view;
    assert.doesNotMatch(renderer.render('enroll-passkey', 'en', withoutPhone), /Add a phone instead/);
    assert.throws(() =>
      renderer.render('enroll-passkey', 'en', { ...view, cancelAction: 'https://evil.example/x' }),
    );
  });
});
