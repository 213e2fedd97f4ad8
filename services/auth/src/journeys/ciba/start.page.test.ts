import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { baseCss } from '@sesame/branding';
import { forms, texts, visibleText } from '../../pages/page-fixtures';
import { assertOnePostForm, pageUnderTest } from '../../testing/page-under-test';

const page = pageUnderTest('ciba-start');

describe('ciba-start page', () => {
  page.inEachLocale('renders in %s as one POST form, so a link preview cannot take the link', (html) => {
    assertOnePostForm(html, '/ciba/abc');
  });

  it('shows who asks, the binding message and the button Continue in English', () => {
    const html = page.render('en');
    assert.deepEqual(texts(html, 'h1'), ['Sign-in request']);
    assert.match(visibleText(html), /Acme Bank asks you to sign in to approve a request\./);
    assert.match(visibleText(html), /Transfer 4F2K/);
    assert.deepEqual(forms(html)[0]!.buttons, ['Continue']);
  });

  it('has no message panel without a binding message', () => {
    const html = page.render('en', { ...page.view, bindingMessage: undefined });
    assert.doesNotMatch(visibleText(html), /Message from/);
  });
});

describe('ciba-start page: the binding message is prominent', () => {
  it('shows it in a boxed section with its own heading, in large type, not as small print', () => {
    const html = page.render('en');
    const section = /<section class="panel"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    assert.deepEqual(texts(section, 'h2'), ['Message from Acme Bank']);
    const message = /<p class="([^"]*)" data-binding-message>([^<]*)<\/p>/.exec(section);
    assert.deepEqual(message?.slice(1), ['message binding-message', 'Transfer 4F2K']);
    const css = baseCss().toString('utf8');
    const rule = /\.binding-message \{([^}]*)\}/.exec(css)?.[1] ?? '';
    assert.match(rule, /font-size: 1\.5rem;/);
    assert.match(rule, /font-weight: 700;/);
  });
});
