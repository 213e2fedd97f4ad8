import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import Handlebars from 'handlebars';
import { LOCALES } from '../i18n';
import { createPageRenderer } from './renderer';
import { stencilRenderer } from './stencil';
import type { IdentifyView } from './views';

const hostile = [
  '',
  'Shop',
  `<script>alert("x")</script> & 'y' = \`z\``,
  'Ünïcødé ✓ 🙂 — ß',
  '\uE0000&\uE001 looks like a marker \uE000filled\uE001',
  '{appName} $& $1 {{csrf}}',
];

describe('stencils: a page filled in per request equals the page Handlebars renders', () => {
  const fast = createPageRenderer();
  const slow = createPageRenderer({ stencils: false });

  it('renders the identify page identically in every locale, for hostile names, emails and tokens, with and without error, passkey and phone', () => {
    let compared = 0;
    for (const locale of LOCALES) {
      for (const text of hostile) {
        for (const error of [undefined, 'invalidEmail', 'mailFailed'] as const) {
          for (const passkey of [true, false]) {
            const view: IdentifyView = {
              appName: text,
              email: text,
              csrf: `csrf-${text}`,
              action: `/flow/${encodeURIComponent(text)}/email`,
              error,
              passkey: passkey
                ? { optionsUrl: '/flow/a"b/options', verifyUrl: `/flow/${text.length}/v` }
                : undefined,
              ...(passkey ? { mobileAction: `/flow/${encodeURIComponent(text)}/mobile` } : {}),
            };
            assert.equal(fast.render('identify', locale, view), slow.render('identify', locale, view));
            compared++;
          }
        }
      }
    }
    assert.equal(compared, LOCALES.length * hostile.length * 3 * 2);
  });

  it('still refuses a form action that is not a same-origin path', () => {
    const view: IdentifyView = { appName: 'Shop', csrf: 'c', action: '//evil.example/x' };
    assert.throws(() => fast.render('identify', 'en', view), /not a same-origin path/);
  });
});

describe('stencilRenderer', () => {
  const hb = Handlebars.create();
  // Like the renderer's `t`: a key the catalog lacks throws.
  hb.registerHelper('key', (k: string) => {
    const text = ({ greeting: 'Hello', farewell: 'Bye' } as Record<string, string>)[k];
    if (text === undefined) throw new Error(`no key ${k}`);
    return text;
  });
  const compile = (source: string) => {
    const template = hb.compile(source, { strict: true });
    return (context: Record<string, unknown>) => template(context);
  };

  it('fills a hole escaped where the template escapes it and raw where it prints it raw ({{{ }}})', () => {
    const render = compile('<a title="{{v}}">{{{v}}}</a>');
    const stencil = stencilRenderer(['v'], render, hb.Utils.escapeExpression);
    for (const v of ['plain', '<b>&"=\'`</b>']) assert.equal(stencil.render('k', { v }), render({ v }));
  });

  it('keeps a separate stencil for an empty hole, so #if on a hole still decides', () => {
    const render = compile('{{#if v}}[{{v}}]{{else}}none{{/if}}');
    const stencil = stencilRenderer(['v'], render, hb.Utils.escapeExpression);
    assert.equal(stencil.render('k', { v: '' }), 'none');
    assert.equal(stencil.render('k', { v: 'x' }), '[x]');
    assert.equal(stencil.render('k', { v: '' }), 'none');
  });

  it('renders with Handlebars each time when a hole is used as a catalog key (the marker is no key)', () => {
    const render = compile('{{key v}}');
    const stencil = stencilRenderer(['v'], render, hb.Utils.escapeExpression);
    assert.equal(stencil.render('k', { v: 'greeting' }), 'Hello');
    assert.equal(stencil.render('k', { v: 'farewell' }), 'Bye');
    assert.throws(() => stencil.render('k', { v: 'other' }), /no key other/);
  });

  it('uses one stencil per shape: other non-hole data renders its own page', () => {
    const render = compile('{{title}}: {{v}}');
    const stencil = stencilRenderer(['v'], render, hb.Utils.escapeExpression);
    assert.equal(stencil.render('k', { title: 'A', v: '1' }), 'A: 1');
    assert.equal(stencil.render('k', { title: 'B', v: '2' }), 'B: 2');
  });
});
