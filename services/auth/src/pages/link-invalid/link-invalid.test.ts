import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { tags, visibleText } from '../page-fixtures';
import { createPageRenderer } from '../renderer';

const renderer = createPageRenderer();

describe('link-invalid page', () => {
  it.each(LOCALES)('renders in %s with the start-again link', (locale) => {
    const html = renderer.render('link-invalid', locale, { restartUrl: '/flow/f1/identify' });
    assert.deepEqual(
      tags(html, 'a').map((a) => a.href),
      ['/flow/f1/identify'],
    );
  });

  it('says the link expired or was used and hints to start again', () => {
    const text = visibleText(renderer.render('link-invalid', 'en', {}));
    assert.match(text, /This link has expired or was already used\./);
    assert.match(text, /start again to get a new link/);
  });
});
