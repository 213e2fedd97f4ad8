import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../../i18n';
import { tags, texts, visibleText } from '../../pages/page-fixtures';
import { fullViews } from '../../pages/page-fixtures';
import { createPageRenderer } from '../../pages/renderer';

const renderer = createPageRenderer();
const view = fullViews['magic-link-sent'];

describe('magic-link-sent page', () => {
  it.each(LOCALES)('renders in %s with the status and continue URLs on the waiting container', (locale) => {
    const html = renderer.render('magic-link-sent', locale, view);
    const box = tags(html, 'div').find((div) => div['data-status-url']);
    assert.deepEqual(
      [box?.['data-status-url'], box?.['data-continue-url'], box?.['data-expires-at']],
      ['/flow/f1/status', '/flow/f1/continue', '1900000000000'],
    );
  });

  it('loads flow-wait.js from /assets under a hashed name, deferred', () => {
    const script = tags(renderer.render('magic-link-sent', 'en', view), 'script')[0] ?? {};
    assert.match(script.src ?? '', /^\/assets\/flow-wait\.[0-9a-f]{10}\.js$/);
    assert.ok('defer' in script);
  });

  it('says where the link went and offers a manual continue link for browsers without script', () => {
    const html = renderer.render('magic-link-sent', 'en', view);
    assert.deepEqual(texts(html, 'h1'), ['Check your email']);
    assert.match(
      visibleText(html),
      /We sent a sign-in link to ada@example\.com\. Open it on any device; this page continues by itself\./,
    );
    const link = tags(html, 'a').find((a) => a.href === '/flow/f1/continue');
    assert.ok(link);
    assert.ok(texts(html, 'a').includes("I've confirmed, continue"));
  });

  it('carries the expired message hidden, as an alert for the script to reveal', () => {
    const html = renderer.render('magic-link-sent', 'en', view);
    assert.match(
      html,
      /<p class="error" role="alert" data-when="expired" hidden>This sign-in request has expired/,
    );
  });
});
