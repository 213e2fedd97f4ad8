import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MissingMessageError, catalogs, placeholders, translate, translateHtml } from './catalogs';
import { LOCALES } from './locale';

const english = Object.keys(catalogs.en).sort();

describe('message catalogs', () => {
  it.each(LOCALES)('%s has exactly the English keys', (locale) => {
    assert.deepEqual(Object.keys(catalogs[locale]).sort(), english);
  });

  it.each(LOCALES)('%s has no empty values', (locale) => {
    const empty = Object.entries(catalogs[locale]).filter(([, text]) => text.trim() === '');
    assert.deepEqual(empty, []);
  });

  it.each(LOCALES)('%s uses the same placeholders as English in every entry', (locale) => {
    const differing = english.filter(
      (key) =>
        placeholders(catalogs[locale][key] ?? '').join() !== placeholders(catalogs.en[key] ?? '').join(),
    );
    assert.deepEqual(differing, []);
  });

  it('has the email texts and error page entries the flow needs', () => {
    const needed = ['email.code.subject', 'email.code.text', 'email.code.html', 'email.link.subject'];
    const errors = ['generic', 'unknownClient', 'badRedirectUri', 'linkExpired', 'sessionMismatch'];
    for (const kind of [...errors, 'tooManyAttempts', 'flowExpired']) {
      needed.push(`error.${kind}.title`, `error.${kind}.message`);
    }
    assert.deepEqual(
      needed.filter((key) => !(key in catalogs.en)),
      [],
    );
  });
});

describe('translate', () => {
  it('fills in placeholders', () => {
    assert.equal(translate('en', 'email.code.subject', { code: '123456' }), 'Your Sesame code is 123456');
    assert.equal(translate('de', 'email.code.subject', { code: '123456' }), 'Ihr Sesame-Code lautet 123456');
  });

  it('throws on a key no catalog has instead of showing the key', () => {
    assert.throws(() => translate('fr', 'no.such.key'), MissingMessageError);
  });

  it('throws when a placeholder has no value', () => {
    assert.throws(() => translate('en', 'email.code.subject', {}), /no value for \{code\}/);
  });

  it('does not treat inherited object properties as keys', () => {
    assert.throws(() => translate('en', 'toString'), MissingMessageError);
  });
});

describe('translateHtml', () => {
  it('escapes the values but keeps the catalog markup', () => {
    const html = translateHtml('en', 'email.link.html', {
      appName: '<b>Shop</b>',
      email: 'a"b@example.com',
      url: 'https://auth.example/l?a=1&b=2',
      minutes: 15,
    });
    assert.match(html, /<a href="https:\/\/auth\.example\/l\?a=1&amp;b=2">/);
    assert.match(html, /&lt;b&gt;Shop&lt;\/b&gt;/);
    assert.match(html, /a&quot;b@example\.com/);
  });
});
