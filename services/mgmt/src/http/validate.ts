import { MgmtError } from '@sesame/platform';
import type { z } from 'zod';

/**
 * A message that never repeats the caller's input: zod's own messages for enums, literals and unknown keys
 * quote what was received, so those get fixed text (the allowed values are ours to name).
 */
function messageOf(issue: z.ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return 'has unknown field(s)';
    case 'invalid_enum_value':
      return `must be one of ${issue.options.join(', ')}`;
    case 'invalid_literal':
      return `must be ${JSON.stringify(issue.expected)}`;
    case 'invalid_type':
      return issue.received === 'undefined' ? 'is required' : `must be ${issue.expected}`;
    default:
      return issue.message;
  }
}

/** zod issues as the `fields` of a 400: `{ "redirectUris.0": "must be an absolute URI" }`. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.') || '(body)';
    fields[path] ??= messageOf(issue);
  }
  return fields;
}

/** Parses a request part with its schema; a mismatch is a 400 `invalid_request` naming every bad field. */
export function parse<S extends z.ZodTypeAny>(schema: S, value: unknown, what = 'request body'): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    throw new MgmtError(400, 'invalid_request', `invalid ${what}`, fieldErrors(parsed.error));
  }
  return parsed.data;
}
