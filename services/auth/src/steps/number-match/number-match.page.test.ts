import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { forms, tags, texts, visibleText } from '../../pages/page-fixtures';
import { assertOnePostForm, pageUnderTest } from '../../testing/page-under-test';

const page = pageUnderTest('number-match');

describe('number-match page', () => {
  page.inEachLocale('renders in %s as one POST form of three buttons named by their number', (html) => {
    const form = assertOnePostForm(html, '/link/abc');
    assert.deepEqual(form.buttons, ['85', '47', '12']);
    assert.equal(form.hidden.find((input) => input.name === 'csrf')?.value, 'csrf-1');
  });

  it('names each button’s value as its number, under the name choice, all three looking alike', () => {
    const buttons = tags(page.render('en'), 'button');
    assert.deepEqual(
      buttons.map((b) => [b.type, b.name, b.value, b.class]),
      [
        ['submit', 'choice', '85', 'secondary'],
        ['submit', 'choice', '47', 'secondary'],
        ['submit', 'choice', '12', 'secondary'],
      ],
    );
  });

  it('says in English that the sign-in continues on another device: its browser and OS, place and start time', () => {
    const html = page.render('en');
    assert.deepEqual(texts(html, 'h1'), ['Confirm sign-in']);
    assert.deepEqual(texts(html, 'h2'), [
      'This sign-in will continue on another device',
      'Pick the number shown on the other device',
    ]);
    const text = visibleText(html);
    assert.match(text, /Sign in to Acme Shop as ada@example\.com\?/);
    assert.match(text, /Device Chrome 140 on macOS 10\.15/);
    assert.match(text, /Approximate location Zurich, Switzerland/);
    // 1_900_000_000_000 ms is 2030-03-17 17:46:40 UTC.
    assert.match(text, /Started Mar 17, 2030, 5:46\s?PM UTC/);
    assert.equal(tags(html, 'time')[0]?.datetime, '2030-03-17T17:46:40.000Z');
    assert.match(text, /A wrong number stops the sign-in on both devices\./);
  });

  it('names the country in the page’s language (de, fr)', () => {
    assert.match(visibleText(page.render('de')), /Zurich, Schweiz/);
    assert.match(visibleText(page.render('fr')), /Zurich, Suisse/);
  });

  it('says the location is unknown when the address tells nothing, and the country alone without a city', () => {
    const nowhere = { ...page.view, other: { ...page.view.other, city: undefined, country: undefined } };
    assert.match(visibleText(page.render('en', nowhere)), /Approximate location Unknown location/);
    const countryOnly = { ...page.view, other: { ...page.view.other, city: undefined } };
    assert.match(visibleText(page.render('en', countryOnly)), /Approximate location Switzerland/);
  });

  it('on the phone of desktop to mobile: its own title and question', () => {
    const html = page.render('en', {
      ...page.view,
      purpose: 'phone',
      action: '/flow/f1/mobile/match',
    });
    assert.deepEqual(texts(html, 'h1'), ['Sign in with this phone?']);
    assert.match(visibleText(html), /Acme Shop asks you to confirm a sign-in with this phone\./);
    assert.equal(forms(html)[0]?.attrs.action, '/flow/f1/mobile/match');
  });
});
