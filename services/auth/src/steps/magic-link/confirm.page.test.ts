import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { forms, texts, visibleText } from '../../pages/page-fixtures';
import { assertOnePostForm, pageUnderTest } from '../../testing/page-under-test';

const page = pageUnderTest('magic-link-confirm');

describe('magic-link-confirm page', () => {
  page.inEachLocale('renders in %s as one POST form, so a link-following scanner cannot confirm', (html) => {
    assertOnePostForm(html, '/l/abc');
  });

  it('has the English heading, question and button Confirm sign-in', () => {
    const html = page.render('en');
    assert.deepEqual(texts(html, 'h1'), ['Confirm sign-in']);
    assert.match(visibleText(html), /Sign in to Acme Shop as ada@example\.com\?/);
    assert.deepEqual(forms(html)[0]!.buttons, ['Confirm sign-in']);
  });
});
