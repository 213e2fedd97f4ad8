import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { z } from 'zod';
import { displayText, oneLineValue } from './display-text';
import { DEFAULT_TEMPLATES } from './mail-defaults';
import { renderMail } from './mail-layout';
import { mailTemplateSchema } from './mail-templates';
import { brandingSettingsSchema } from './settings';

const refused = [
  ['CR/LF', 'Acme\r\nBcc: x@evil.test'],
  ['a lone LF', 'Acme\nCorp'],
  ['TAB', 'Acme\tCorp'],
  ['NUL', 'Acme\u0000'],
  ['DEL', 'Acme\u007f'],
  ['a C1 control (NEL)', 'Acme\u0085Corp'],
  ['RLO (U+202E)', 'Acme\u202Egpj.exe'],
  ['LRE (U+202A)', '\u202AAcme'],
  ['RLI (U+2067)', 'Acme\u2067x\u2069'],
  ['FSI (U+2068)', 'Acme\u2068'],
  ['a zero-width space (U+200B)', 'Ac\u200Bme'],
  ['a right-to-left mark (U+200F)', 'Acme\u200F'],
  ['a word joiner (U+2060)', 'Ac\u2060me'],
  ['a byte-order mark (U+FEFF)', '\uFEFFAcme'],
  ['a line separator (U+2028)', 'Acme\u2028Corp'],
] as const;

describe('displayText: names shown to people and put into mail headers', () => {
  const schema = z.object({ name: displayText(200) });

  for (const [what, value] of refused) {
    it(`refuses ${what}, naming the field`, () => {
      const parsed = schema.safeParse({ name: value });
      assert.equal(parsed.success, false);
      if (parsed.success) return;
      assert.deepEqual(parsed.error.issues[0]?.path, ['name']);
      assert.match(parsed.error.issues[0]?.message ?? '', /control, bidi-override or zero-width/);
    });
  }

  it('refuses a lone surrogate (text mangled by a broken encoding), naming the field', () => {
    for (const name of ['Acme\uD800', '\uDC00Acme']) {
      const parsed = schema.safeParse({ name });
      assert.equal(parsed.success, false);
      if (!parsed.success) assert.deepEqual(parsed.error.issues[0]?.path, ['name']);
    }
    assert.equal(schema.safeParse({ name: 'Café 🍰' }).success, true);
  });

  it('keeps letters of every script, spaces inside and punctuation; trims the ends', () => {
    for (const name of ['Acme GmbH & Co. KG', 'Zürich Bäckerei', 'שלום עולם', '東京 ストア', 'Café 🍰'])
      assert.deepEqual(schema.parse({ name: `  ${name} ` }), { name });
  });

  it('refuses an empty or blank name and one longer than its maximum', () => {
    for (const name of ['', '   ', 'x'.repeat(201), 'x'.repeat(10_000)])
      assert.equal(schema.safeParse({ name }).success, false, JSON.stringify(name.slice(0, 10)));
    assert.equal(schema.safeParse({ name: 'x'.repeat(200) }).success, true);
  });

  it('refuses what is not a string (numbers, arrays, objects, null)', () => {
    for (const name of [1e308, ['Acme'], { name: 'Acme' }, null])
      assert.equal(schema.safeParse({ name }).success, false);
  });
});

describe('older data with control characters renders safely', () => {
  it('oneLineValue turns controls and line breaks into spaces and drops bidi and zero-width characters', () => {
    assert.equal(oneLineValue('Shop\r\nBcc: x@evil.test'), 'Shop Bcc: x@evil.test');
    assert.equal(oneLineValue('Sh\u202Eop\u200B\u2066'), 'Shop');
    assert.equal(oneLineValue('Shop\u0000\u0085\u2028x'), 'Shop x');
  });

  it('a subject filled with an app name holding CR/LF stays one line', () => {
    const mail = renderMail({
      kind: 'sign-in-code',
      locale: 'en',
      template: DEFAULT_TEMPLATES.en['sign-in-code'],
      values: { app: 'Shop\r\nBcc: x@evil.test', code: '123456' },
      brand: { name: 'Shop\r\nX', accentLight: '#1d4ed8', accentDark: '#60a5fa' },
    });
    assert.equal(mail.subject, 'Your code for Shop Bcc: x@evil.test is 123456');
  });
});

describe('the texts of branding and mail templates', () => {
  it('branding displayName and mailSenderName refuse bidi overrides and zero-width characters', () => {
    for (const field of ['displayName', 'mailSenderName']) {
      const parsed = brandingSettingsSchema.safeParse({ [field]: 'Acme\u202Etxt' });
      assert.equal(parsed.success, false, field);
      if (!parsed.success) assert.deepEqual(parsed.error.issues[0]?.path, [field]);
    }
  });

  it('a subject template refuses CR/LF and other controls; the body keeps its line breaks', () => {
    const template = { subject: 'Your code {{code}}', heading: 'Hi', body: 'Code:\n\n{{code}}' };
    assert.equal(mailTemplateSchema('sign-in-code').safeParse(template).success, true);
    for (const subject of [
      'Code {{code}}\r\nBcc: x@evil.test',
      'Code {{code}}\u0000',
      'Code \u202E{{code}}',
    ]) {
      const parsed = mailTemplateSchema('sign-in-code').safeParse({ ...template, subject });
      assert.equal(parsed.success, false, JSON.stringify(subject));
      if (!parsed.success) assert.deepEqual(parsed.error.issues[0]?.path, ['subject']);
    }
  });
});
