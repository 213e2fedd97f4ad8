import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();

describe('magic-link-done page', () => {
  it.each(LOCALES)('renders in %s without any form', (locale) => {
    assert.doesNotMatch(renderer.render('magic-link-done', locale, {}), /<form/);
  });

  it('tells the user to return to the window where they started', () => {
    const html = renderer.render('magic-link-done', 'en', {});
    assert.deepEqual(texts(html, 'h1'), ["You're signed in"]);
    assert.match(
      visibleText(html),
      /You're signed in\. You can close this tab and return to the window where you started\./,
    );
  });
});
