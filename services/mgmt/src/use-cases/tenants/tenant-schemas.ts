import { displayText } from '@sesame/branding';
import { z } from 'zod';
import { adminEmail, inviteeLocale } from '../../admins/schemas';

/** The body a tenant is created with (the admin API) and renamed with (the admin API and the console). */
export const createTenantBody = z
  .object({
    name: displayText(200),
    /** With the bootstrap key: who is invited as the tenant's first Owner. */
    ownerEmail: adminEmail.optional(),
    /** The language of that invitation mail (default en). */
    ownerLocale: inviteeLocale.optional(),
  })
  .strict();
