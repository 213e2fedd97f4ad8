import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews['register-start'];

describe('register-start page', () => {
  it.each(LOCALES)('renders in %s: one POST form to the link with the CSRF token', (locale) => {
    const [form, ...others] = forms(renderer.render('register-start', locale, view));
    assert.equal(others.length, 0);
    assert.equal(form?.attrs.action, '/register/abc');
    assert.deepEqual(
      form?.hidden.map((i) => i.value),
      ['csrf-1'],
    );
  });

  it('says in English who invites whom, shows the custom message, and has Continue', () => {
    const html = renderer.render('register-start', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Create your account']);
    assert.match(visibleText(html), /Acme Bank invited you to create an account for ada@example\.com\./);
    assert.match(visibleText(html), /Message from Acme Bank Welcome to Acme Bank\./);
    assert.deepEqual(forms(html)[0]!.buttons, ['Continue']);
  });

  it('has no message panel without a custom message', () => {
    const html = renderer.render('register-start', 'en', { ...view, customMessage: undefined });
    assert.doesNotMatch(html, /Message from/);
  });
});
