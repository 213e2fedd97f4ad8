import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { brandCss } from './brand-css';
import { contrastRatio, formatRatio } from './colour';
import { brandingSettingsSchema, contrastProblems, mergeBranding } from './settings';

describe('contrast (WCAG 2.x)', () => {
  it('measures the known ratios: black on white 21:1, equal colours 1:1, #777 on white 4.47:1', () => {
    assert.equal(formatRatio(contrastRatio('#000000', '#ffffff')), '21.00:1');
    assert.equal(formatRatio(contrastRatio('#abcdef', '#ABCDEF')), '1.00:1');
    assert.equal(formatRatio(contrastRatio('#777777', '#ffffff')), '4.47:1');
  });

  it("passes Sesame's own colours in light and dark", () => {
    assert.deepEqual(contrastProblems('light', { accent: '#1d4ed8', background: '#f3f4f6' }), []);
    assert.deepEqual(contrastProblems('dark', { accent: '#60a5fa', background: '#0b1120' }), []);
  });

  it('refuses a low-contrast pair with the measured ratio in the error', () => {
    const parsed = brandingSettingsSchema.safeParse({ light: { accent: '#ffff00', background: '#ffffff' } });
    assert.equal(parsed.success, false);
    const messages = parsed.success
      ? []
      : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    assert.ok(
      messages.includes(
        'light: light: accent #ffff00 against background #ffffff has a contrast ratio of 1.07:1; buttons and other controls need at least 3:1',
      ),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) => /accent #ffff00 on the card #ffffff has a contrast ratio of 1\.07:1/.test(m)),
    );
  });

  it('refuses page text on a dark background in the light scheme (text 4.5:1)', () => {
    const problems = contrastProblems('light', { accent: '#1d4ed8', background: '#222222' });
    assert.ok(
      problems.some((p) =>
        /^light: text #111827 on background #222222 has a contrast ratio of 1\.\d\d:1/.test(p),
      ),
    );
  });
});

describe('branding settings schema', () => {
  it('lower-cases colours, refuses unknown fields, markup in names and non-http links', () => {
    const ok = brandingSettingsSchema.parse({
      displayName: 'ACME',
      light: { accent: '#1D4ED8', background: '#FFFFFF' },
    });
    assert.deepEqual(ok.light, { accent: '#1d4ed8', background: '#ffffff' });
    for (const bad of [
      { colour: '#fff' },
      { displayName: '<b>x</b>' },
      { supportUrl: 'javascript:alert(1)' },
      { privacyUrl: 'data:text/html,x' },
      { light: { accent: 'red', background: '#ffffff' } },
      { mailSenderName: 'A"B' },
      { mailReplyTo: 'not an address' },
      { cornerStyle: 'blob' },
    ])
      assert.equal(brandingSettingsSchema.safeParse(bad).success, false, JSON.stringify(bad));
  });

  it("an application's fields win over its tenant's, the rest stay", () => {
    assert.deepEqual(mergeBranding({ displayName: 'ACME', cornerStyle: 'pill' }, { displayName: 'Shop' }), {
      displayName: 'Shop',
      cornerStyle: 'pill',
    });
  });
});

describe('the branded stylesheet tokens', () => {
  it("keeps each scheme's colours to that scheme (light colours never reach the dark page) and corners in both", () => {
    assert.equal(
      brandCss({ light: { accent: '#0f766e', background: '#ffffff' }, cornerStyle: 'square' }),
      ':root{--radius:0}\n@media not all and (prefers-color-scheme: dark){:root{--accent:#0f766e;--accent-text:#ffffff;--focus:#0f766e;--bg:#ffffff}}\n',
    );
    assert.match(
      brandCss({ dark: { accent: '#60a5fa', background: '#000000' } }),
      /^@media \(prefers-color-scheme: dark\)\{:root\{--accent:#60a5fa;--accent-text:#111827;/,
    );
    assert.equal(brandCss({ displayName: 'x' }), '');
  });
});
