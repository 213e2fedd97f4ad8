import { mailConfigSchema } from '@sesame/mail';
import { baseConfigSchema, kindOf, loadConfig, peersSchema, refuseInProduction } from '@sesame/platform';
import { z } from 'zod';
import { breakGlassProductionProblem, parseBreakGlass } from './admins/break-glass';
import { parseKeyRing } from './secrets/client-secret-vault';

const port = z.coerce.number().int().min(0).max(65535);

/**
 * Admin keys that were ever published (docs, earlier defaults): refused in every environment, since anyone
 * who read them could use them. `npm start` generates a random key instead.
 */
export const PUBLISHED_ADMIN_KEYS: readonly string[] = ['dev-admin-key'];

/** The development key ring of client-secret copies: refused in production (anyone can read it here). */
export const DEV_CLIENT_SECRET_KEYS = 'dev:ZGV2LW9ubHktY2xpZW50LXNlY3JldC1rZXktMzJieSE';

export const configSchema = baseConfigSchema
  .merge(peersSchema)
  .merge(mailConfigSchema)
  .extend({
    HTTP_PORT: port.default(8084),
    GRPC_PORT: port.default(50054),
    SESAME_ADMIN_KEY: z
      .preprocess(
        (v) => (v === '' ? undefined : v),
        z
          .string()
          .min(8, 'must be at least 8 characters')
          .refine(
            (key) => !PUBLISHED_ADMIN_KEYS.includes(key),
            'a published key is refused; set a random one',
          )
          .optional(),
      )
      .describe(
        "Bootstrap admin key: `Authorization: Bearer <key>` on the admin API, for setting up an empty install (the first tenant and its first Owner invitation). Refused once a tenant has an Owner unless break-glass is on. Unset: only administrators' personal API tokens are accepted.",
      ),
    SESAME_ADMIN_KEY_FAILURES_PER_IP: z.coerce
      .number()
      .int()
      .min(0)
      .default(20)
      .describe('Failed admin-key attempts per caller IP per window before 429 (0: no limit).'),
    SESAME_ADMIN_KEY_FAILURE_WINDOW_S: z.coerce
      .number()
      .int()
      .positive()
      .default(300)
      .describe('The window of the failed admin-key limit.'),
    SESAME_ADMIN_BREAK_GLASS: z
      .string()
      .default('off')
      .superRefine((value, ctx) => {
        const parsed = parseBreakGlass(value);
        if (typeof parsed === 'string') ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed });
      })
      .describe(
        'Whether the bootstrap key keeps working once a tenant has an Owner: off (default), on (development and test), or on-until:<ISO 8601 time> (at most 24 hours ahead; the only form production starts with).',
      ),
    SESAME_ADMIN_INVITATION_TTL_H: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(72)
      .describe('How long an administrator invitation link stays valid, in hours.'),
    SESAME_CLIENT_SECRET_KEYS: z
      .string()
      .default(DEV_CLIENT_SECRET_KEYS)
      .superRefine((value, ctx) => {
        try {
          parseKeyRing(value);
        } catch (err) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: (err as Error).message });
        }
      })
      .describe(
        'Keys of the sealed client-secret copies (interactive init signatures): `<keyId>:<32 bytes base64url>`, comma-separated, the sealing key first; older keys still open what they sealed (rotation).',
      ),
    SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: z
      .enum(['true', 'false'])
      .optional()
      .describe(
        "Allows an application's backchannelLogoutUri on a loopback host when it is saved, as ciba-notifier's variable of the same name allows delivering to one. Unset: on in the development kind, off elsewhere; refused in a production environment.",
      ),
  });
export type MgmtConfig = z.infer<typeof configSchema>;

/** Whether a backchannelLogoutUri may be on a loopback host (SESAME_ALLOW_LOOPBACK_NOTIFICATIONS, above). */
export function allowsLoopbackEndpoints(config: MgmtConfig): boolean {
  const loopback = config.SESAME_ALLOW_LOOPBACK_NOTIFICATIONS;
  return loopback === undefined ? kindOf(config) === 'development' : loopback === 'true';
}

export function loadMgmtConfig(env: Record<string, string | undefined> = process.env): MgmtConfig {
  const config = loadConfig(configSchema, env, [
    'SESAME_KAFKA_BROKERS',
    'SESAME_MONGO_URL',
    'SESAME_REDIS_URL',
  ]);
  refuseInProduction(
    config,
    (config.SESAME_ADMIN_KEY ?? '').length < 32,
    'SESAME_ADMIN_KEY: must be at least 32 characters in production',
  );
  const breakGlass = breakGlassProductionProblem(
    parseBreakGlass(config.SESAME_ADMIN_BREAK_GLASS) as Exclude<ReturnType<typeof parseBreakGlass>, string>,
    Date.now(),
  );
  refuseInProduction(config, breakGlass !== undefined, breakGlass ?? '');
  refuseInProduction(
    config,
    config.SESAME_ALLOW_LOOPBACK_NOTIFICATIONS === 'true',
    'SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: loopback notification endpoints are refused in production',
  );
  refuseInProduction(
    config,
    config.SESAME_CLIENT_SECRET_KEYS.split(',').some((k) => k.trim() === DEV_CLIENT_SECRET_KEYS),
    'SESAME_CLIENT_SECRET_KEYS: the development key is refused in production; set <keyId>:<random 32 bytes>',
  );
  return config;
}
