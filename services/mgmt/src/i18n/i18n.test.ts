import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { consoleCatalogs, consoleLocale, ct } from '.';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('console catalogs', () => {
  it('German and French have every English key, with the same placeholders', () => {
    for (const locale of ['de', 'fr'] as const) {
      const catalog = consoleCatalogs[locale];
      assert.deepEqual(Object.keys(catalog).sort(), Object.keys(consoleCatalogs.en).sort(), locale);
      for (const [key, text] of Object.entries(consoleCatalogs.en)) {
        assert.deepEqual(placeholders(catalog[key]!), placeholders(text), `${locale} ${key}`);
      }
    }
  });

  it('the navigation and the pages’ actions are translated, not English left over', () => {
    for (const key of [
      'nav.signOut',
      'nav.tokens',
      'tokens.create',
      'apps.create',
      'admins.send',
      'error.back',
      'advanced.authMethod',
      'advanced.jwks',
      'advanced.jwksUri',
      'advanced.requirePar',
      'advanced.requireDpop',
    ]) {
      assert.notEqual(consoleCatalogs.de[key], consoleCatalogs.en[key], `de ${key}`);
      assert.notEqual(consoleCatalogs.fr[key], consoleCatalogs.en[key], `fr ${key}`);
    }
  });

  it('picks the language by Accept-Language q, else English; fills placeholders', () => {
    assert.equal(consoleLocale('fr-CA, de;q=0.9'), 'fr');
    assert.equal(consoleLocale('es, de;q=0.5'), 'de');
    assert.equal(consoleLocale('de;q=0, fr;q=0.1'), 'fr');
    assert.equal(consoleLocale(undefined), 'en');
    assert.equal(ct('en', 'admins.invited', { email: 'a@b.c' }), 'Invitation sent to a@b.c.');
    assert.throws(() => ct('en', 'no.such.key'));
  });
});
