import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, tags, texts } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews.consent;

describe('consent page', () => {
  it.each(LOCALES)('renders in %s with one form of two decision buttons', (locale) => {
    const html = renderer.render('consent', locale, view);
    const form = forms(html)[0]!;
    assert.equal(form.buttons.length, 2);
    assert.deepEqual(
      tags(html, 'button').map((b) => [b.name, b.value, b.type]),
      [
        ['decision', 'approve', 'submit'],
        ['decision', 'deny', 'submit'],
      ],
    );
  });

  it('has the English heading and the buttons Approve and Deny', () => {
    const html = renderer.render('consent', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Acme Bank is asking for your approval']);
    assert.deepEqual(forms(html)[0]!.buttons, ['Approve', 'Deny']);
  });

  it('lists the requested scopes as human texts', () => {
    assert.deepEqual(texts(renderer.render('consent', 'en', view), 'li'), [
      'Your email address',
      'Your phone number',
      'Information about your devices and sign-in history',
    ]);
  });

  it('shows the custom message and the payment as a description list', () => {
    const html = renderer.render('consent', 'en', view);
    assert.ok(texts(html, 'p').includes('Please confirm your transfer.'));
    const terms = texts(html, 'dt');
    const details = texts(html, 'dd');
    assert.deepEqual(
      [terms.slice(0, 3), details.slice(0, 3)],
      [
        ['Payee', 'Amount', 'Payment method'],
        ['ACME Utilities', '€ 120.00', 'Visa •••• 4242'],
      ],
    );
  });

  it('shows the approval with its main attribute emphasized and an icon per attribute (Payment by default)', () => {
    const html = renderer.render('consent', 'en', view);
    assert.match(html, /<strong>Premium plan<\/strong>/);
    assert.deepEqual(
      tags(html, 'img').map((img) => [(img.src ?? '').replace(/\.[0-9a-f]{10}\./, '.'), img.alt]),
      [
        ['/assets/icons/Calendar.svg', 'Date'],
        ['/assets/icons/Payment.svg', 'Payment'],
      ],
    );
  });

  it('renders with only scopes: no psd2, approval or message blocks', () => {
    const html = renderer.render('consent', 'en', {
      appName: 'A',
      action: '/c',
      csrf: 'c',
      scopes: ['email'],
    });
    assert.deepEqual([tags(html, 'section').length, tags(html, 'img').length], [0, 0]);
  });

  it('refuses more than the 2 approval attributes the spec allows rather than hide one', () => {
    const attributes = [1, 2, 3].map((n) => ({ label: `l${n}`, value: `v${n}` }));
    assert.throws(
      () => renderer.render('consent', 'en', { ...view, approval: { attributes } }),
      /at most 2 attributes/,
    );
  });
});
