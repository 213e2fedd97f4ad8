import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, inputByLabel, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews.identify;

describe('identify page', () => {
  it.each(LOCALES)('renders in %s with the email field prefilled', (locale) => {
    const html = renderer.render('identify', locale, view);
    assert.equal(forms(html)[0]!.attrs.action, '/flow/f1/identify');
    assert.ok(html.includes('value="ada@example.com"'));
  });

  it('has the English accessible names: h1 Sign in, input Email address, button Continue', () => {
    const html = renderer.render('identify', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Sign in']);
    assert.match(visibleText(html), /to continue to Acme Shop/);
    const email = inputByLabel(html, 'Email address');
    assert.equal(email.type, 'email');
    assert.equal(email.autocomplete, 'username webauthn');
    assert.ok('required' in email);
    assert.deepEqual(forms(html)[0]!.buttons, ['Continue']);
  });

  it('ties an error to the input with aria-describedby and announces it with role=alert', () => {
    const html = renderer.render('identify', 'en', { ...view, error: 'invalidEmail' });
    const email = inputByLabel(html, 'Email address');
    assert.equal(email['aria-invalid'], 'true');
    assert.match(
      html,
      new RegExp(`<p id="${email['aria-describedby']}" class="error" role="alert">Enter an email`),
    );
  });

  it('renders without an email or error', () => {
    const html = renderer.render('identify', 'en', { appName: 'A', action: '/i', csrf: 'c' });
    assert.equal(inputByLabel(html, 'Email address').value, '');
    assert.doesNotMatch(html, /role="alert"/);
  });
});

describe('identify page: passkeys', () => {
  it('offers Use a passkey (shown by the script) and loads the passkey script, with a passkeyCapable field', () => {
    const html = renderer.render('identify', 'en', view);
    assert.match(
      html,
      /<button type="button" class="secondary" data-passkey-button hidden>Use a passkey<\/button>/,
    );
    assert.match(
      html,
      /data-passkey-sign-in data-options-url="\/flow\/f1\/passkey\/sign-in-options" data-verify-url="\/flow\/f1\/passkey\/sign-in"/,
    );
    assert.match(html, /<input type="hidden" name="passkeyCapable" value="">/);
    assert.match(html, /<script src="\/assets\/passkeys\.[0-9a-f]{10}\.js" defer><\/script>/);
  });

  it('without passkey URLs, has no passkey button and no script', () => {
    const { passkey: _p, ...plain } = view;
    const html = renderer.render('identify', 'en', plain);
    assert.doesNotMatch(html, /passkey/i);
    assert.doesNotMatch(html, /<script/);
  });
});
