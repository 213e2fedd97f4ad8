import { z } from 'zod';
import { UNSAFE_DISPLAY_CHARS } from './display-text';

/** Every mail Sesame sends, by the name its template is kept under. */
export const mailKinds = ['sign-in-code', 'magic-link', 'registration-link', 'admin-invitation'] as const;
export type MailKind = (typeof mailKinds)[number];
export const mailLocales = ['en', 'de', 'fr'] as const;
export type MailLocale = (typeof mailLocales)[number];

/** The texts of one mail in one locale; `{{name}}` placeholders are filled (escaped) when it is sent. */
export interface MailTemplate {
  subject: string;
  preheader: string;
  heading: string;
  body: string;
  /** The label of the mail's button (mails with a link). */
  button: string;
}
export const templateFields = ['subject', 'preheader', 'heading', 'body', 'button'] as const;

/** The placeholders each mail offers, and those its template must use somewhere (else it is refused). */
export const PLACEHOLDERS: Record<MailKind, { allowed: readonly string[]; required: readonly string[] }> = {
  'sign-in-code': { allowed: ['code', 'app', 'email', 'expiresInMinutes'], required: ['code'] },
  'magic-link': { allowed: ['link', 'app', 'email', 'expiresInMinutes'], required: [] },
  'registration-link': { allowed: ['link', 'app', 'email', 'expiresInMinutes'], required: [] },
  'admin-invitation': { allowed: ['link', 'tenant', 'role', 'email', 'expiresInHours'], required: [] },
};
/** Mails whose button opens `{{link}}` (the one thing the person must do). */
export const hasButton = (kind: MailKind): boolean => kind !== 'sign-in-code';

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The names of the placeholders in a text, as written. */
export const placeholdersIn = (text: string): string[] =>
  [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');

/**
 * Why a template cannot be saved: a placeholder the mail does not offer, a required one missing, a stray
 * brace, a line break in the subject. Empty when it can.
 */
export function templateProblems(kind: MailKind, template: MailTemplate): string[] {
  const { allowed, required } = PLACEHOLDERS[kind];
  const problems: string[] = [];
  // What the reader is shown: a required value hidden in the subject or preheader alone does not count.
  const shown = new Set([...placeholdersIn(template.heading), ...placeholdersIn(template.body)]);
  for (const field of templateFields) {
    const text = template[field];
    for (const name of placeholdersIn(text)) {
      if (!allowed.includes(name))
        problems.push(
          `${field}: unknown placeholder {{${name}}}; this mail offers ${allowed.map((a) => `{{${a}}}`).join(', ')}`,
        );
    }
    if (/\{\{|\}\}/.test(text.replace(PLACEHOLDER, '')))
      problems.push(`${field}: a "{{" or "}}" that is not part of a placeholder`);
  }
  for (const name of required)
    if (!shown.has(name)) problems.push(`the mail must show {{${name}}} (in its heading or body)`);
  if (hasButton(kind) && !template.button.trim())
    problems.push('button: must not be empty (it opens {{link}})');
  return problems;
}

const field = (max: number) => z.string().max(max);
/** A template as an admin sends it, checked for its placeholders (`kind` decides which are offered). */
export function mailTemplateSchema(kind: MailKind) {
  return z
    .object({
      // A header: one line, without controls, bidi overrides or zero-width characters (displayText).
      subject: field(200)
        .refine((s) => !UNSAFE_DISPLAY_CHARS.test(s), 'must be a single line of plain text')
        .transform((s) => s.trim())
        .pipe(z.string().min(1, 'must not be empty')),
      preheader: field(200).default(''),
      heading: field(200).trim().min(1, 'must not be empty'),
      body: field(4000).trim().min(1, 'must not be empty'),
      button: field(80).default(''),
    })
    .strict()
    .superRefine((t, ctx) => {
      for (const message of templateProblems(kind, t)) ctx.addIssue({ code: 'custom', message });
    });
}

/** Fills the placeholders of a text; `encode` is applied to each value (HTML-escaping in the HTML part). */
export function fill(
  text: string,
  values: Record<string, string>,
  encode: (value: string, name: string) => string = (value) => value,
): string {
  return text.replace(PLACEHOLDER, (_m, name: string) => encode(values[name] ?? '', name));
}
