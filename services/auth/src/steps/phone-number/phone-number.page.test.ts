import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews.phone;

describe('phone page', () => {
  it.each(LOCALES)('renders in %s one POST form with a labelled tel input', (locale) => {
    const html = renderer.render('phone', locale, view);
    const [form, ...others] = forms(html);
    assert.equal(others.length, 0);
    assert.equal(form?.attrs.action, '/flow/f1/phone');
    assert.match(html, /<label for="phone">[^<]+<\/label>/);
    assert.match(html, /<input id="phone" name="phone" type="tel"/);
  });

  it('asks for the Mobile number with a Send code button, and says what was wrong', () => {
    const html = renderer.render('phone', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Verify your mobile number']);
    assert.deepEqual(texts(html, 'label'), ['Mobile number']);
    assert.deepEqual(forms(html)[0]!.buttons, ['Send code']);
    assert.match(visibleText(html), /Enter a mobile number with its country code/);
    assert.match(html, /role="alert"/);
  });
});
