import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES, translate } from '../../i18n';
import { texts, visibleText } from '../page-fixtures';
import { createPageRenderer } from '../renderer';

const renderer = createPageRenderer();
const sessionMismatch = { title: 'error.sessionMismatch.title', message: 'error.sessionMismatch.message' };

describe('error page', () => {
  it.each(LOCALES)('renders in %s with the title in h1 and <title>', (locale) => {
    const html = renderer.render('error', locale, sessionMismatch);
    assert.equal(texts(html, 'title')[0], `${texts(html, 'h1')[0]} – Sesame`);
  });

  it('shows the texts of the catalog keys it is given', () => {
    const html = renderer.render('error', 'en', sessionMismatch);
    assert.deepEqual(texts(html, 'h1'), ['Different browser']);
    assert.match(visibleText(html), /This sign-in was started in another browser\./);
  });

  it('falls back to the generic texts for keys no catalog has', () => {
    const html = renderer.render('error', 'de', { title: 'error.nope.title', message: '<b>raw</b>' });
    assert.deepEqual(texts(html, 'h1'), ['Etwas ist schiefgelaufen']);
    assert.match(visibleText(html), /Ihre Anfrage konnte nicht abgeschlossen werden/);
    assert.doesNotMatch(html, /raw/);
  });

  it.each(LOCALES)(
    'renders the reason line of a detail key in %s, under the message, and none without one',
    (locale) => {
      // The reason texts hold no character HTML escapes.
      const reasonOf = (html: string) =>
        [...html.matchAll(/<p class="reason">([^<]*)<\/p>/g)].map((m) => (m[1] ?? '').trim());
      const logout = { title: 'error.logout.title', message: 'error.logout.message' };
      const html = renderer.render('error', locale, {
        ...logout,
        detail: 'error.logout.reason.unknownClient',
      });
      assert.deepEqual(reasonOf(html), [translate(locale, 'error.logout.reason.unknownClient')]);
      assert.ok(html.indexOf('class="lead"') < html.indexOf('class="reason"'), 'under the message');
      assert.deepEqual(reasonOf(renderer.render('error', locale, logout)), []);
      assert.deepEqual(reasonOf(renderer.render('error', locale, { ...logout, detail: 'no.such.key' })), []);
    },
  );
});
