import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews['magic-link-confirm'];

describe('magic-link-confirm page', () => {
  it.each(LOCALES)('renders in %s as one POST form, so a link-following scanner cannot confirm', (locale) => {
    const [form, ...others] = forms(renderer.render('magic-link-confirm', locale, view));
    assert.ok(form);
    assert.equal(others.length, 0);
    assert.equal(form.attrs.method, 'post');
    assert.equal(form.attrs.action, '/l/abc');
  });

  it('has the English heading, question and button Confirm sign-in', () => {
    const html = renderer.render('magic-link-confirm', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Confirm sign-in']);
    assert.match(visibleText(html), /Sign in to Acme Shop as ada@example\.com\?/);
    assert.deepEqual(forms(html)[0]!.buttons, ['Confirm sign-in']);
  });
});
