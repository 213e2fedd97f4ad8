import { z } from 'zod';

/** Field types the configuration schemas share (config.ts, tracing-config.ts). */

/** An optional string (a name, a path, a list of addresses); empty counts as absent. */
export const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** An optional absolute URL; empty counts as absent. */
export const optionalHttpUrl = z
  .string()
  .trim()
  .url()
  .optional()
  .or(z.literal('').transform(() => undefined));
