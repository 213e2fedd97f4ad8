import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, texts } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const headings = {
  en: 'Registration link not valid',
  de: 'Registrierungslink ungültig',
  fr: 'Lien d’inscription non valide',
};

describe('register-invalid page', () => {
  it.each(LOCALES)('renders in %s: says the link expired or was used, with no form', (locale) => {
    const html = renderer.render('register-invalid', locale, {});
    assert.deepEqual(texts(html, 'h1'), [headings[locale]]);
    assert.equal(forms(html).length, 0);
  });
});
