import { z } from 'zod';

export const INTERACTIVE_PURPOSES = ['device_enrollment'] as const;

/**
 * The body of interactive init (spec 4.9). redirect_uri is compared with the app's registered URIs by exact
 * string equality (the route); state comes back in the redirect, so it is bounded like /authorize's; data
 * is reserved: any object is accepted and ignored. Unknown fields are refused.
 */
export const interactiveInitBody = z
  .object({
    redirect_uri: z.string().min(1).max(2048),
    purpose: z.enum(INTERACTIVE_PURPOSES),
    state: z.string().max(2048).optional(),
    data: z.record(z.unknown()).optional(),
  })
  .strict();
