import { DISPLAY_TEXT_MESSAGE, UNSAFE_DISPLAY_CHARS, mailLocales } from '@sesame/branding';
import { z } from 'zod';
import { adminRoles } from './model';

/** An administrator's email, lower-cased. Lenient on purpose: local addresses such as admin@localhost are fine. */
export const adminEmail = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')
  .refine((v) => !UNSAFE_DISPLAY_CHARS.test(v), DISPLAY_TEXT_MESSAGE)
  .transform((v) => v.toLowerCase());

export const adminRole = z.enum(adminRoles, {
  errorMap: () => ({ message: 'must be owner, administrator or support' }),
});

/** The language of an invitation mail (the tenant's template in it, else Sesame's). */
export const inviteeLocale = z.enum(mailLocales);
