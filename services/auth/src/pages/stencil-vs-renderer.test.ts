import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type Gen, seeded, testSeed } from '@sesame/testing';
import { LOCALES } from '../i18n';
import { createPageRenderer } from './renderer';
import type { IdentifyView } from './views';

/**
 * Differential test of the stencil (stencil.ts, the first page of every sign-in) against the Handlebars
 * render it stands in for, over generated identify views: every locale, app names, login hints, CSRF tokens
 * and URLs with HTML-special characters, marker look-alikes and template syntax, each optional part present
 * or not. Views repeat shapes with other values, so a stencil built for one request fills another's.
 */

const SEED = testSeed(26_112_024);
const VIEWS = 1500;
const HOSTILE = [
  '<',
  '>',
  '&',
  '"',
  "'",
  '`',
  '=',
  '&amp;',
  '&#x27;',
  '{{csrf}}',
  '{{{appName}}}',
  '{appName}',
  '$&',
  '$1',
  '\\',
  '\uE000',
  '\uE001',
  '\uE0000&\uE001',
  '\uE000filled\uE001',
  '\u0000',
  '\n',
  'ß',
  'Ü',
  '🙂',
  '—',
  ' ',
  '%22',
  '<script>alert(1)</script>',
];
const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.';

/** Plain characters mostly, hostile pieces now and then; sometimes empty. */
function text(g: Gen, max = 24): string {
  if (g.chance(0.05)) return '';
  let out = '';
  for (let n = g.int(1, max); n > 0; n--) out += g.chance(0.25) ? g.pick(HOSTILE) : g.text(PLAIN, 1, 1);
  return out;
}

/** A same-origin path as the flows build them (segments URL-encoded), or one with raw odd characters. */
function path(g: Gen): string {
  const segment = () => (g.chance(0.7) ? encodeURIComponent(text(g, 12)) : text(g, 12).replace(/\s/g, ''));
  return `/flow/${segment()}/${g.pick(['email', 'mobile', 'options', 'verify', 'a"b', "o'k", '<x>'])}`;
}

function view(g: Gen): IdentifyView {
  const passkey = g.chance(0.5);
  return {
    appName: g.chance(0.3) ? g.pick(['Shop', 'ACME & Co.', '<b>Bank</b>']) : text(g),
    csrf: g.chance(0.7) ? g.text(`${PLAIN}~`, 43, 43) : text(g, 60),
    action: path(g),
    ...(g.chance(0.4) ? { email: g.pick([() => `${text(g, 10)}@example.com`, () => text(g)])() } : {}),
    ...(g.chance(0.3) ? { error: g.pick(['invalidEmail', 'rateLimited', 'mailFailed'] as const) } : {}),
    ...(passkey ? { passkey: { optionsUrl: path(g), verifyUrl: path(g) } } : {}),
    ...(g.chance(passkey ? 0.7 : 0.2) ? { mobileAction: path(g) } : {}),
  };
}

/** The rendered page, or the error the renderer threw (a refused URL must be refused by both). */
function attempt(render: () => string): string {
  try {
    return render();
  } catch (err) {
    return `threw: ${(err as Error).message}`;
  }
}

describe('the identify page: stencil vs Handlebars, over generated views', () => {
  it(`renders every generated view byte for byte as Handlebars does (seed ${SEED})`, () => {
    const g = seeded(SEED);
    const fast = createPageRenderer();
    const slow = createPageRenderer({ stencils: false });
    let pages = 0;
    for (let i = 0; i < VIEWS; i++) {
      const locale = g.pick(LOCALES);
      const v = view(g);
      // A path given whitespace is refused (not a same-origin path): both renderers must refuse it alike.
      if (g.chance(0.02)) v.action = g.pick(['//evil.example/x', 'https://evil.example/', '/a b', '']);
      const expected = attempt(() => slow.render('identify', locale, v));
      const actual = attempt(() => fast.render('identify', locale, v));
      if (actual !== expected)
        assert.fail(`differs for ${locale} ${JSON.stringify(v)}:\n${firstDifference(actual, expected)}`);
      if (!expected.startsWith('threw: ')) pages++;
    }
    assert.ok(pages > VIEWS * 0.8, `only ${pages} pages rendered`);
  });
});

/** Where two renders part, with some context (a whole page in a failure message helps nobody). */
function firstDifference(actual: string, expected: string): string {
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 60));
  return `at ${i}: stencil ${around(actual)}\n      handlebars ${around(expected)}`;
}
