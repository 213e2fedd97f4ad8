import { HttpError, MgmtError } from '@sesame/platform';

/** A form field a refusal can name: its element id on the page and its label as the page says it. */
export interface FormField {
  id: string;
  label: string;
  /** A list field's entries are typed one per line (the default) or side by side (`item N`). */
  entries?: 'line' | 'item';
}

/**
 * One field of a console form as its page describes it (application-form.ts): element id, label and hint
 * keys, input type, and its value as text from the form `F`.
 */
export interface FieldSpec<F> {
  id: string;
  label: string;
  value: (f: F) => string;
  type?: 'text' | 'url' | 'number';
  hint?: string;
  entries?: 'item';
  /** Under Advanced (the details opens when one of them is refused). */
  advanced?: boolean;
}

/**
 * A refused form, for the page to show beside each field: `byField[name]` is the message of the field `name`
 * ("Redirect URIs: must be an absolute URI", naming the field), `list` the same in form order for the
 * summary (each links to its field), `focus[name]` true for the first refused field only (autofocus).
 */
export interface FormErrors {
  byField: Record<string, string>;
  list: { id: string; message: string }[];
  focus: Record<string, true>;
}

/** The form field a schema path names: `redirectUris.0` → redirectUris, `ciba.mode` → its `aliases` entry. */
const fieldOf = (path: string, aliases: Record<string, string>) => aliases[path] ?? path.split('.')[0]!;

/**
 * The field errors of a 400 answer (an HttpError whose body carries `error.fields`, as parse() and the admin
 * domain throw), keyed by the form's field names in `fields` order; undefined for any other error, which the
 * caller rethrows. A field the form does not have is reported under the first field (never dropped).
 */
export function formErrors(
  err: unknown,
  fields: Record<string, FormField>,
  aliases: Record<string, string> = {},
): FormErrors | undefined {
  if (!(err instanceof HttpError) || err.status !== 400) return undefined;
  const body = err.body() as { error?: { message?: string; fields?: Record<string, string> } };
  const reported = Object.entries(body.error?.fields ?? {});
  if (reported.length === 0) return undefined;
  const names = Object.keys(fields);
  const byField: Record<string, string> = {};
  for (const [path, why] of reported) {
    const name = fieldOf(path, aliases);
    const known = names.includes(name) ? name : names[0]!;
    // A list field's entry (redirectUris.1) is named by its line, as typed one per line.
    const line = /^[^.]+\.(\d+)$/.exec(path)?.[1];
    const reason =
      line === undefined ? why : `${fields[known]!.entries ?? 'line'} ${Number(line) + 1} ${why}`;
    byField[known] = byField[known] ? `${byField[known]}; ${reason}` : `${fields[known]!.label}: ${reason}`;
  }
  const order = names.filter((n) => byField[n] !== undefined);
  return {
    byField,
    list: order.map((n) => ({ id: fields[n]!.id, message: byField[n]! })),
    focus: { [order[0]!]: true },
  };
}

/** A 400 naming `field` with `why`, as parse() answers (for a rule a schema cannot say). */
export const fieldRefusal = (field: string, why: string) =>
  new MgmtError(400, 'invalid_request', 'invalid form', { [field]: why });
