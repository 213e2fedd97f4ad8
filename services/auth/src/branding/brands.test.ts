import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { DEFAULT_TEMPLATES } from '@sesame/branding';
import { directory } from '@sesame/proto';
import express from 'express';
import { LOCALES } from '../i18n';
import { PAGE_NAMES } from '../pages';
import { fullViews, hostile, tags, texts } from '../pages/page-fixtures';
import { createPageRenderer } from '../pages/renderer';
import { brandedMail } from './brand-mail';
import { brandRouter } from './brand-routes';
import { pageBrandOf } from './brand-urls';
import { cacheBrands } from './brands';

const BASE = Buffer.from(':root{--accent:#1d4ed8}\n');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"></rect></svg>';
const answer = (over: Partial<directory.Branding> = {}) =>
  directory.GetBrandingResponse.fromPartial({
    branding: {
      displayName: 'ACME',
      light: { accent: '#0f766e', background: '#ffffff' },
      cornerStyle: 'pill',
      logoContentType: 'image/svg+xml',
      logoHash: 'x',
      logo: Buffer.from(SVG),
      mailSenderName: 'ACME Team',
      mailReplyTo: 'help@acme.example',
      ...over,
    },
    mailTemplates: [
      {
        kind: 'sign-in-code',
        locale: 'de',
        ...DEFAULT_TEMPLATES.de['sign-in-code'],
        subject: 'ACME: {{code}}',
      },
    ],
  });

async function serve(router: express.Router) {
  const app = express().use('/branding', router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

describe('brands in auth', () => {
  it('are cached until an admin event clears them; a failed lookup falls back to the default design', async () => {
    let calls = 0;
    const brands = cacheBrands(
      async () => (++calls === 3 ? Promise.reject(new Error('down')) : answer()),
      BASE,
      60_000,
    );
    const a = await brands.get('t1', 'a1');
    await brands.get('t1', 'a1');
    assert.equal(calls, 1, 'one Directory call per app until a change');
    assert.equal(a.displayName, 'ACME');
    assert.ok(a.stylesheet?.body.toString().includes('--accent:#0f766e'));
    brands.clear();
    await brands.get('t1', 'a1');
    assert.equal(calls, 2);
    brands.clear();
    const down = await brands.get('t1', 'a1');
    assert.deepEqual([down.displayName, down.stylesheet, down.logo], [undefined, undefined, undefined]);
  });

  it('serve the logo as an image with its own strict headers and the stylesheet under its hash (immutable)', async () => {
    const brands = cacheBrands(
      async (tenantId) => (tenantId === 't1' ? answer() : directory.GetBrandingResponse.fromPartial({})),
      BASE,
      60_000,
    );
    const brand = await brands.get('t1', 'a1');
    const page = pageBrandOf(brand, 'Shop');
    const s = await serve(brandRouter(brands));
    try {
      const logo = await fetch(`${s.url}${page.logoUrl}`);
      assert.equal(logo.status, 200);
      assert.equal(logo.headers.get('content-type'), 'image/svg+xml');
      assert.equal(
        logo.headers.get('content-security-policy'),
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      assert.equal(logo.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(logo.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(await logo.text(), SVG);
      const css = await fetch(`${s.url}${page.stylesheet}`);
      assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
      assert.match(await css.text(), /--radius:1\.5rem/);
      const stale = await fetch(
        `${s.url}${page.stylesheet!.replace(/style\.[0-9a-f]{10}/, 'style.0000000000')}`,
      );
      assert.equal(
        stale.headers.get('cache-control'),
        'no-cache',
        'an old hash gets today’s file, revalidated',
      );
      assert.equal(
        (await fetch(`${s.url}/branding/t2/-/logo.0123456789.png`)).status,
        404,
        'no logo, no file',
      );
      const wrongType = page.logoUrl!.replace(/\.svg$/, '.png');
      assert.equal((await fetch(`${s.url}${wrongType}`)).status, 404, 'the logo only under its own type');
    } finally {
      await s.close();
    }
  });

  it('every page shows the brand: logo (never inlined), app name in the title, links, stylesheet; in every locale', async () => {
    const brands = cacheBrands(async () => answer({ supportUrl: 'https://acme.example/help' }), BASE, 60_000);
    const brand = pageBrandOf(await brands.get('t1', 'a1'), 'Shop');
    const renderer = createPageRenderer();
    for (const locale of LOCALES)
      for (const page of PAGE_NAMES) {
        const html = renderer.render(page, locale, fullViews[page] as never, brand);
        assert.match(texts(html, 'title')[0] ?? '', / – ACME$/, `${page} ${locale}`);
        assert.deepEqual(
          tags(html, 'img')
            .filter((i) => i.class === 'brand-logo')
            .map((i) => i.src),
          [brand.logoUrl],
        );
        assert.ok(
          !html.includes('<svg xmlns="http://www.w3.org/2000/svg"><rect'),
          'the logo is never inlined',
        );
        assert.ok(html.includes(`href="${brand.stylesheet}"`));
        assert.ok(html.includes('href="https://acme.example/help"'));
        // Sesame's own name only in the footer's "Secure sign-in by Sesame" (the dev root page is Sesame's own).
        const footer = /<footer class="foot">[\s\S]*?<\/footer>/.exec(html)?.[0] ?? '';
        assert.match(footer, /Sesame/, `${page} ${locale}`);
        if (page !== 'welcome') assert.doesNotMatch(html.replace(footer, ''), /Sesame/, `${page} ${locale}`);
      }
    const escaped = renderer.render('error', 'en', fullViews.error, { name: hostile });
    assert.ok(!escaped.includes('<script>alert'), 'a brand name cannot add markup');
  });

  it("the first page's stencil fills in each brand exactly as Handlebars renders it", () => {
    const fast = createPageRenderer();
    const slow = createPageRenderer({ stencils: false });
    const brands = [
      {
        name: 'A',
        logoUrl: '/branding/t/a/logo.0123456789.svg',
        stylesheet: '/branding/t/a/style.0123456789.css',
        supportUrl: 'https://a.example/help',
        privacyUrl: '',
      },
      {
        name: hostile,
        logoUrl: '',
        stylesheet: '',
        supportUrl: '',
        privacyUrl: 'https://b.example/p?a=1&b="2"',
      },
      undefined,
    ];
    for (const locale of LOCALES)
      for (const brand of [...brands, ...brands])
        assert.equal(
          fast.render('identify', locale, fullViews.identify, brand),
          slow.render('identify', locale, fullViews.identify, brand),
        );
  });

  it("mails use the tenant's template and locale, the sender name, reply-to and the logo from auth_url", async () => {
    const brands = cacheBrands(async () => answer(), BASE, 60_000);
    const app = { tenantId: 't1', appId: 'a1', appName: 'Shop' };
    const de = await brandedMail(
      { brands, authUrl: 'https://auth.example/' },
      app,
      'sign-in-code',
      'de',
      'ada@example.com',
      { code: '123456', expiresInMinutes: '10' },
    );
    assert.equal(de.subject, 'ACME: 123456');
    assert.equal(de.fromName, 'ACME Team');
    assert.equal(de.replyTo, 'help@acme.example');
    assert.match(de.html, /<img src="https:\/\/auth\.example\/branding\/t1\/a1\/logo\.[0-9a-f]{10}\.svg"/);
    const en = await brandedMail(
      { authUrl: 'https://auth.example' },
      app,
      'magic-link',
      'en',
      'ada@example.com',
      { link: 'https://auth.example/link/abc', email: 'ada@example.com', expiresInMinutes: '15' },
    );
    assert.equal(en.subject, 'Sign in to Shop');
    assert.match(en.text, /^https:\/\/auth\.example\/link\/abc$/m);
    assert.equal(en.fromName, undefined);

    // {{app}} is the application's name, as on its pages, even where the brand has a display name of its own.
    const link = { link: 'https://auth.example/link/abc', email: 'ada@example.com', expiresInMinutes: '15' };
    const branded = await brandedMail(
      { brands, authUrl: 'https://auth.example' },
      app,
      'magic-link',
      'en',
      'ada@example.com',
      link,
    );
    assert.equal(branded.subject, 'Sign in to Shop');
    assert.match(branded.html, /alt="ACME"/, 'the header names the brand');
    // No application known: the brand's (the tenant's) display name.
    const noApp = await brandedMail(
      { brands, authUrl: 'https://auth.example' },
      { ...app, appId: '', appName: '' },
      'magic-link',
      'en',
      'ada@example.com',
      link,
    );
    assert.equal(noApp.subject, 'Sign in to ACME');
  });
});
