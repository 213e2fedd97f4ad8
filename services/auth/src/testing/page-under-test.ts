import assert from 'node:assert/strict';
import { it } from '@jest/globals';
import { LOCALES, type Locale } from '../i18n';
import { forms, fullViews } from '../pages/page-fixtures';
import { createPageRenderer } from '../pages/renderer';
import type { PageName, PageViews } from '../pages/views';

/** One hosted page for its page test: rendered from its full view (page-fixtures) unless told otherwise. */
export function pageUnderTest<P extends PageName>(page: P) {
  const renderer = createPageRenderer();
  const view = fullViews[page];
  const render = (locale: Locale = 'en', v: PageViews[P] = view) => renderer.render(page, locale, v);
  return {
    view,
    render,
    /** One test per supported language (`%s` in the title is the locale), of the page in that language. */
    inEachLocale(title: string, check: (html: string, locale: Locale) => void) {
      it.each(LOCALES)(title, (locale) => check(render(locale), locale));
    },
  };
}

/** Asserts the page has exactly one form, a POST to `action`, and returns it. */
export function assertOnePostForm(html: string, action: string) {
  const [form, ...others] = forms(html);
  assert.ok(form);
  assert.equal(others.length, 0);
  assert.equal(form.attrs.method, 'post');
  assert.equal(form.attrs.action, action);
  return form;
}
