import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { texts } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();

describe('mobile-done page (the phone after desktop to mobile)', () => {
  it.each(LOCALES)('renders in %s, telling the person to go back to the computer', (locale) => {
    const heading = texts(renderer.render('mobile-done', locale, {}), 'h1')[0];
    assert.equal(
      heading,
      {
        en: 'You can go back to your computer',
        de: 'Sie können zu Ihrem Computer zurückkehren',
        fr: 'Vous pouvez revenir à votre ordinateur',
      }[locale],
    );
  });

  it('says the request was declined after Deny', () => {
    const html = renderer.render('mobile-done', 'en', { outcome: 'declined' });
    assert.deepEqual(texts(html, 'h1'), ['Request declined']);
  });

  it('says the sign-in cannot go on when a rule refused it', () => {
    const html = renderer.render('mobile-done', 'en', { outcome: 'refused' });
    assert.deepEqual(texts(html, 'h1'), ['Sign-in not possible']);
  });
});
