import { z } from 'zod';

/** Field types the configuration schemas share (config.ts, tracing-config.ts). */

/** An optional string (a name, a path, a list of addresses); empty counts as absent. */
export const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * An optional http:// or https:// URL; empty counts as absent. Any other scheme (ftp:, file:, javascript:, a
 * bare host:port that parses as one) is refused at start, not found out at the first request made to it.
 */
export const optionalHttpUrl = z
  .string()
  .trim()
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http:// or https:// URL')
  .optional()
  .or(z.literal('').transform(() => undefined));
