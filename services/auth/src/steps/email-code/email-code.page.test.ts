import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { forms, fullViews, inputByLabel, texts, visibleText } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews['email-code'];

describe('email-code page', () => {
  it.each(LOCALES)('renders in %s with three forms: verify, magic link, new code', (locale) => {
    const html = renderer.render('email-code', locale, view);
    assert.deepEqual(
      forms(html).map((form) => form.attrs.action),
      ['/flow/f1/code', '/flow/f1/magic-link', '/flow/f1/resend'],
    );
  });

  it('has the English accessible names: input Verification code, buttons Verify and Email me a link instead', () => {
    const html = renderer.render('email-code', 'en', view);
    const code = inputByLabel(html, 'Verification code');
    assert.equal(code.inputmode, 'numeric');
    assert.equal(code.autocomplete, 'one-time-code');
    assert.equal(code.pattern, '[0-9]{6}');
    assert.equal(code.maxlength, '6');
    assert.deepEqual(
      forms(html).map((form) => form.buttons),
      [['Verify'], ['Email me a link instead'], ['Send a new code']],
    );
    assert.match(visibleText(html), /We sent a 6-digit code to ada@example\.com/);
    assert.deepEqual(texts(html, 'a'), ['Use a different email address']);
  });

  it('ties the error and attempts left to the input and announces them', () => {
    const html = renderer.render('email-code', 'en', view);
    assert.equal(inputByLabel(html, 'Verification code')['aria-describedby'], 'code-hint code-error');
    assert.match(
      html,
      /<p id="code-error" class="error" role="alert">That code is not right\.[^<]*3 attempts left\./,
    );
  });

  it.each([
    ['en', 1, '1 attempt left.'],
    ['de', 1, 'Noch 1 Versuch.'],
    ['fr', 0, '0 tentative restante.'],
    ['fr', 2, '2 tentatives restantes.'],
  ] as const)('says attempts left in %s for %d as "%s"', (locale, attemptsLeft, expected) => {
    const html = renderer.render('email-code', locale, { ...view, attemptsLeft });
    assert.ok(visibleText(html).includes(expected));
  });

  it('renders without error, attempts or resend notice', () => {
    const { error, attemptsLeft, resent, ...plain } = view;
    const html = renderer.render('email-code', 'en', plain);
    assert.doesNotMatch(html, /role="alert"|role="status"/);
    assert.equal(inputByLabel(html, 'Verification code')['aria-describedby'], 'code-hint');
  });
});
