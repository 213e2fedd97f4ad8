import { MgmtError } from '@sesame/platform';
import type { z } from 'zod';

/** zod issues as the `fields` of a 400: `{ "redirectUris.0": "must be an absolute URI" }`. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.') || '(body)';
    const message =
      issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message;
    fields[path] ??= message;
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
