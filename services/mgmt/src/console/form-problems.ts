import { MgmtError } from '@sesame/platform';
import type { z } from 'zod';
import { fieldErrors as zodFieldErrors } from '../http/validate';
import { type ConsoleLocale, ct } from '../i18n';

/**
 * Validation beside the field (issue 37), for every console form but the applications' (page-application.ts
 * has its own): a refused form is the same page again, status 400, with everything typed kept, each bad field
 * marked `aria-invalid="true"` and described by a message that names it ("Background colour must be a hex
 * colour like #1d4ed8"), the first one `autofocus`ed, and an alert above the form listing them all.
 */

/** One field of a form: its input's id (the message's id is `<id>-error`) and its label's catalog key. */
export interface FieldSpec {
  id: string;
  label: string;
}
/** A form's fields in the order they appear on the page (the first bad one gets the focus). */
export type FormSpec = Record<string, FieldSpec>;

export interface FieldError {
  id: string;
  message: string;
  first: boolean;
}

/** What a template reads: `errors.<field>` for the field's attributes and message, and the alert's text. */
export interface FormErrorsView {
  errors: Record<string, FieldError>;
  errorSummary: string;
}

/** A problem found with the value of one form field (or, with no field, with the form as a whole). */
export interface Problem {
  field?: string;
  message: string;
}

/** "Background colour must be …" for a reason that reads on from the label, else "Logo: the file is …". */
export function namedMessage(label: string, why: string): string {
  return /^(must|is|has|should|cannot|does|needs?|already)\b/.test(why)
    ? `${label} ${why}`
    : `${label}: ${why}`;
}

/**
 * The view of `problems` in `form`: each field keeps its first problem; a problem of a field the form does not
 * show (or of none) stays in the alert only. Empty problems give an empty view (no alert, nothing marked).
 */
export function formErrors(locale: ConsoleLocale, form: FormSpec, problems: Problem[]): FormErrorsView {
  const errors: Record<string, FieldError> = {};
  const summary: string[] = [];
  const order = Object.keys(form);
  const firstField = order.find((f) => problems.some((p) => p.field === f));
  for (const p of problems) {
    const spec = p.field ? form[p.field] : undefined;
    if (!spec) {
      summary.push(p.message);
      continue;
    }
    if (errors[p.field!]) continue;
    const message = namedMessage(ct(locale, spec.label), p.message);
    errors[p.field!] = { id: `${spec.id}-error`, message, first: p.field === firstField };
    summary.push(message);
  }
  return { errors, errorSummary: summary.join(' ') };
}

/** zod's issues as problems, a path mapped to its form field by `fieldOf` (default: the path joined by dots). */
export function zodProblems(
  error: z.ZodError,
  fieldOf: (path: string) => string | undefined = (path) => path,
): Problem[] {
  return Object.entries(zodFieldErrors(error)).map(([path, message]) => {
    const field = fieldOf(path);
    return field ? { field, message } : { message };
  });
}

/**
 * A domain refusal (a MgmtError below 500) as problems: its `fields` each beside their field, else its
 * message in the alert, or beside `field` when the refusal is about that one field. Anything else is rethrown
 * (a 5xx or a peer that cannot answer stays the error page).
 */
export function refusalProblems(err: unknown, field?: string): Problem[] {
  if (!(err instanceof MgmtError) || err.status >= 500 || err.status === 403 || err.status === 429) throw err;
  const fields = Object.entries(err.fields ?? {});
  if (fields.length > 0) return fields.map(([f, message]) => ({ field: f, message }));
  return [{ ...(field ? { field } : {}), message: err.message }];
}

/**
 * The template side, spliced into the page templates: the attributes of a field's input (after its own
 * attributes; `describedBy` is an id the input is already described by, e.g. its hint) ...
 */
export const invalidAttrs = (field: string, describedBy?: string) =>
  `{{#with errors.${field}}} aria-invalid="true" aria-describedby="{{id}}${describedBy ? ` ${describedBy}` : ''}"{{#if first}} autofocus{{/if}}{{else}}${describedBy ? ` aria-describedby="${describedBy}"` : ''}{{/with}}`;

/** ... its message, right after the input ... */
export const fieldMessage = (field: string) =>
  `{{#with errors.${field}}}<p id="{{id}}" class="error field-error">{{message}}</p>{{/with}}`;

/** ... and the alert above the form, listing every problem. */
export const errorAlert = `{{#if errorSummary}}<p class="error" role="alert">{{errorSummary}}</p>{{/if}}`;
