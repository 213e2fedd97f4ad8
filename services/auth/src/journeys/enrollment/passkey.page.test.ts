import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { forms, texts, visibleText } from '../../pages/page-fixtures';
import { pageUnderTest } from '../../testing/page-under-test';
import { assertPasskeyButtonAndScript, assertPasskeyCreationBox } from '../../testing/passkey-page';

const page = pageUnderTest('enroll-passkey');

describe('enroll-passkey page', () => {
  page.inEachLocale(
    'renders in %s: the creation box for the script, Add a phone instead and Cancel as POST forms',
    (html) => {
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
    const html = page.render('en');
    assert.deepEqual(texts(html, 'h1'), ['Add this device']);
    assert.match(visibleText(html), /Acme Shop asks you to add this device/);
    assert.deepEqual(
      forms(html).map((f) => f.buttons),
      [['Add a phone instead'], ['Cancel']],
    );
    assertPasskeyButtonAndScript(html);
  });

  it('shows no Add a phone instead without phoneUrl, and refuses a URL off this origin', () => {
    const { phoneUrl: _none, ...withoutPhone } = page.view;
    assert.doesNotMatch(page.render('en', withoutPhone), /Add a phone instead/);
    assert.throws(() => page.render('en', { ...page.view, cancelAction: 'https://evil.example/x' }));
  });
});
