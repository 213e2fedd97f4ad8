import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { texts, visibleText } from '../page-fixtures';
import { createPageRenderer } from '../renderer';

const renderer = createPageRenderer();

describe('done page', () => {
  it.each(LOCALES)('renders in %s with the default texts when given none', (locale) => {
    const html = renderer.render('done', locale, {});
    assert.equal(texts(html, 'h1').length, 1);
    assert.doesNotMatch(html, /done\.(title|text)/);
  });

  it('says All done by default', () => {
    const html = renderer.render('done', 'en', {});
    assert.deepEqual(texts(html, 'h1'), ['All done']);
    assert.match(visibleText(html), /You can close this tab\./);
  });

  it('shows the message key it is given', () => {
    const html = renderer.render('done', 'en', { message: 'magicLinkDone.text' });
    assert.match(visibleText(html), /return to the window where you started/);
  });
});
