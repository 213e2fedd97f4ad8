import { mailLocales } from '@sesame/branding';
import { z } from 'zod';
import { adminRoles } from './model';

/** An administrator's email, lower-cased. Lenient on purpose: local addresses such as admin@localhost are fine. */
export const adminEmail = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')
  .transform((v) => v.toLowerCase());

export const adminRole = z.enum(adminRoles, {
  errorMap: () => ({ message: 'must be owner, administrator or support' }),
});

/** The language of an invitation mail (the tenant's template in it, else Sesame's). */
export const inviteeLocale = z.enum(mailLocales);
