import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { DEFAULT_TEMPLATES } from './mail-defaults';
import { renderMail } from './mail-layout';
import { mailKinds, mailLocales, mailTemplateSchema, templateProblems } from './mail-templates';

const brand = { name: 'ACME', accentLight: '#1d4ed8', accentDark: '#60a5fa' };

describe('mail templates', () => {
  it('refuses an unknown placeholder and a missing required one at save time, naming them', () => {
    const t = { ...DEFAULT_TEMPLATES.en['sign-in-code'], body: 'Hello {{name}}, {{code}} for {{app}}' };
    assert.deepEqual(templateProblems('sign-in-code', t), [
      'body: unknown placeholder {{name}}; this mail offers {{code}}, {{app}}, {{email}}, {{expiresInMinutes}}',
    ]);
    const noCode = {
      ...DEFAULT_TEMPLATES.en['sign-in-code'],
      subject: 'Sign in',
      body: 'Welcome to {{app}}',
    };
    assert.deepEqual(templateProblems('sign-in-code', noCode), [
      'the mail must show {{code}} (in its heading or body)',
    ]);
    assert.equal(
      mailTemplateSchema('magic-link').safeParse({ ...DEFAULT_TEMPLATES.en['magic-link'], button: ' ' })
        .success,
      false,
    );
    assert.equal(
      mailTemplateSchema('sign-in-code').safeParse({
        ...DEFAULT_TEMPLATES.en['sign-in-code'],
        subject: 'a\nb {{code}}',
      }).success,
      false,
    );
    assert.deepEqual(
      templateProblems('magic-link', { ...DEFAULT_TEMPLATES.en['magic-link'], heading: 'x }} y' }),
      ['heading: a "{{" or "}}" that is not part of a placeholder'],
    );
  });

  it('every default of every locale is a valid template (en, de, fr complete)', () => {
    for (const locale of mailLocales)
      for (const kind of mailKinds)
        assert.deepEqual(templateProblems(kind, DEFAULT_TEMPLATES[locale][kind]), [], `${locale} ${kind}`);
  });
});

describe('the mail layout', () => {
  it('escapes every value and the template text in the HTML part; the text part carries them plain', () => {
    const mail = renderMail({
      kind: 'magic-link',
      locale: 'en',
      template: { ...DEFAULT_TEMPLATES.en['magic-link'], heading: '<b>Hi</b> {{app}}' },
      values: {
        app: '<script>x</script>',
        link: 'https://auth.example/link/a?b=1&c="2"',
        email: 'a@b.example',
        expiresInMinutes: '15',
      },
      brand,
    });
    assert.ok(!mail.html.includes('<script>x'), 'an app name cannot add markup');
    assert.ok(mail.html.includes('&#60;b&#62;Hi&#60;/b&#62; &#60;script&#62;x&#60;/script&#62;'));
    assert.ok(mail.html.includes('href="https://auth.example/link/a?b=1&#38;c=&#34;2&#34;"'));
    assert.match(
      mail.html,
      /<td class="s-button" align="center" bgcolor="#1d4ed8"/,
      'a real (table) button in the accent',
    );
    assert.match(mail.html, /prefers-color-scheme: dark/);
    assert.ok(mail.text.includes('https://auth.example/link/a?b=1&c="2"'));
    assert.equal(mail.subject, 'Sign in to <script>x</script>');
  });

  it('the code mail shows the code in both parts and has no button', () => {
    const mail = renderMail({
      kind: 'sign-in-code',
      locale: 'de',
      template: DEFAULT_TEMPLATES.de['sign-in-code'],
      values: { app: 'Shop', code: '123456', expiresInMinutes: '10' },
      brand: { ...brand, logoUrl: 'https://auth.example/branding/t/logo.abc.svg' },
    });
    assert.equal(mail.subject, 'Ihr Code für Shop lautet 123456');
    assert.match(mail.text, /\b123456\b/);
    assert.match(mail.html, /<strong style="[^"]*">123456<\/strong>/);
    assert.ok(!mail.html.includes('s-button" align'), 'no button');
    assert.ok(mail.html.includes('<img src="https://auth.example/branding/t/logo.abc.svg" alt="ACME"'));
    assert.ok(mail.text.includes('Sichere Anmeldung mit Sesame'));
  });
});
