import { ACR_VALUES } from '@sesame/oauth';
import { z } from 'zod';

const text = (max: number) =>
  z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

/** spec 4.5's alias object: value only (and always) for type alias; type email sets the alias to userEmail. */
const alias = z
  .object(
    {
      type: z.enum(['none', 'email', 'alias'], { required_error: 'is required' }),
      value: text(200).optional(),
    },
    { invalid_type_error: 'must be an object' },
  )
  .superRefine((a, ctx) => {
    if (a.type === 'alias' && a.value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'is required when type is alias' });
    }
    if (a.type !== 'alias' && a.value !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'is allowed only when type is alias' });
    }
  });

const completionMessage = z.object(
  {
    text: text(1000),
    link: z
      .object({ redirectUri: text(2000), label: text(200) }, { invalid_type_error: 'must be an object' })
      .optional(),
  },
  { invalid_type_error: 'must be an object' },
);

const unique = <T>(values: T[]) => new Set(values).size === values.length;

/** The invitation's fields (spec 4.5 without clientId and credentialsId, which say who asks for which app). */
const invitationFields = {
  userEmail: z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .email('must be an email address'),
  scopes: z
    .array(z.enum(['email', 'phone']), {
      required_error: 'is required',
      invalid_type_error: 'must be an array',
    })
    .refine(unique, 'must not repeat a value'),
  verifications: z
    .array(z.enum(ACR_VALUES), {
      required_error: 'is required',
      invalid_type_error: 'must be an array',
    })
    .refine(unique, 'must not repeat a value'),
  alias: alias.optional(),
  confirmedUser: z.boolean({ invalid_type_error: 'must be a boolean' }).default(true),
  customMessage: text(1000).optional(),
  secondaryCompletionMessage: text(1000).optional(),
  completionMessage: completionMessage.optional(),
};

const aliasUnlessUnconfirmed = (b: { confirmedUser: boolean; alias?: unknown }, ctx: z.RefinementCtx) => {
  if (b.confirmedUser && !b.alias) {
    ctx.addIssue({ code: 'custom', path: ['alias'], message: 'is required unless confirmedUser is false' });
  }
};
const objectErrors = { required_error: 'is required', invalid_type_error: 'must be a JSON object' };

/** Body of POST /api/v1/mgmt/send-activation (spec 4.5), every rule of its table. */
export const sendActivationBody = z
  .object({ clientId: text(256), credentialsId: text(256), ...invitationFields }, objectErrors)
  .superRefine(aliasUnlessUnconfirmed);

/** The admin API's invitation (the CLI's `user invite`): the same fields, the app named by the path. */
export const invitationBody = z.object(invitationFields, objectErrors).superRefine(aliasUnlessUnconfirmed);
export type InvitationBody = z.infer<typeof invitationBody>;
