import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCALES } from '../i18n';
import { catalogs } from '../i18n/catalogs';
import { readSourceFile } from '../source-files';
import { assetFiles } from './asset-files';
import { listPageFiles } from './files';
import { forms, fullViews, hostileViews, inputByLabel, tags, texts } from './page-fixtures';
import { createPageRenderer } from './renderer';
import { TEMPLATE_FILES } from './template-files';
import { PAGE_NAMES, type PageName } from './views';

const renderer = createPageRenderer();
const render = (page: PageName, locale: (typeof LOCALES)[number], views = fullViews) =>
  renderer.render(page, locale, views[page] as never);
const every = PAGE_NAMES.flatMap((page) => LOCALES.map((locale) => [page, locale] as const));

describe('every page in every language', () => {
  it.each(every)('%s (%s) has the lang attribute of its language', (page, locale) => {
    assert.equal(tags(render(page, locale), 'html')[0]?.lang, locale);
  });

  it.each(every)('%s (%s) shows no catalog key in place of a text', (page, locale) => {
    const html = render(page, locale);
    assert.deepEqual(
      Object.keys(catalogs.en).filter((key) => html.includes(key)),
      [],
    );
  });

  it.each(every)(
    '%s (%s) has one h1, a title and the banner, main and contentinfo landmarks',
    (page, locale) => {
      const html = render(page, locale);
      assert.equal(texts(html, 'h1').length, 1);
      assert.ok((texts(html, 'title')[0] ?? '').length > 'Sesame'.length);
      for (const landmark of ['header', 'main', 'footer'])
        assert.equal(tags(html, landmark).length, 1, landmark);
    },
  );
});

describe('every page', () => {
  const hostileHtml = PAGE_NAMES.map((page) => [page, render(page, 'en', hostileViews())] as const);

  it.each(hostileHtml)('%s escapes markup and quotes in every view value', (_, html) => {
    assert.doesNotMatch(html, /<script>/);
    assert.doesNotMatch(html, /"><script/);
    for (const script of tags(html, 'script')) assert.match(script.src ?? '', /^\/assets\//);
  });

  it.each(hostileHtml.filter(([page]) => JSON.stringify(hostileViews()[page]).includes('alert')))(
    '%s prints the hostile text as text',
    (_, html) => {
      assert.ok(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#x27;&amp;'));
    },
  );

  it.each(PAGE_NAMES)('%s has no inline script, style or event handler (strict CSP)', (page) => {
    const html = render(page, 'en');
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i);
    assert.ok(tags(html, 'script').every((script) => script.src));
    assert.equal(tags(html, 'link').filter((link) => link.rel === 'stylesheet').length, 1);
  });

  it.each(PAGE_NAMES)('%s posts every form to a same-origin path with the CSRF token', (page) => {
    for (const form of forms(render(page, 'en'))) {
      assert.equal(form.attrs.method, 'post');
      assert.match(form.attrs.action ?? '', /^\/[^/]/);
      // Besides the token, only the identify form's passkeyCapable, which its script fills in.
      assert.deepEqual(
        form.hidden
          .filter((input) => input.name !== 'passkeyCapable')
          .map((input) => [input.name, input.value]),
        [['csrf', 'csrf-1']],
      );
    }
  });

  it.each(PAGE_NAMES)('%s gives every visible input a label and every image an alt text', (page) => {
    const html = render(page, 'en');
    const labels = [...html.matchAll(/<label for="([^"]+)">([^<]+)<\/label>/g)];
    for (const input of tags(html, 'input').filter((i) => i.type !== 'hidden')) {
      const label = labels.find((m) => m[1] === input.id);
      assert.ok(label, `input #${input.id} has no label`);
      assert.equal(inputByLabel(html, label[2] ?? '').id, input.id);
    }
    for (const img of tags(html, 'img')) assert.ok(img.alt, `${img.src} has no alt`);
  });
});

describe('page weight', () => {
  it.each(PAGE_NAMES)(
    '%s with its stylesheet, scripts and images stays under 100 KB uncompressed',
    (page) => {
      const html = render(page, 'de');
      const assets = [...html.matchAll(/(?:href|src)="\/assets\/([^"]+)"/g)].map((m) =>
        [...assetFiles().values()].find((file) => file.hashedName === m[1]),
      );
      const bytes = assets.reduce((sum, file) => sum + (file?.body.length ?? 0), Buffer.byteLength(html));
      assert.ok(assets.every(Boolean));
      assert.ok(bytes < 100 * 1024, `${bytes} bytes`);
    },
  );
});

describe('the renderer', () => {
  it.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)'])(
    'refuses a form action that is not a same-origin path: %s',
    (action) => {
      assert.throws(
        () => renderer.render('identify', 'en', { ...fullViews.identify, action }),
        /same-origin/,
      );
    },
  );

  it('uses no triple-stash (unescaped) output in any template', () => {
    const templates = [
      ...PAGE_NAMES.map((p) => TEMPLATE_FILES[p]),
      ...listPageFiles('layout').map((f) => `pages/layout/${f}`),
    ];
    for (const file of templates) assert.doesNotMatch(readSourceFile(file).toString(), /\{\{\{|\{\{&/, file);
  });
});
