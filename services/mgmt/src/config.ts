import {
  baseConfigSchema,
  loadConfig,
  peersSchema,
  refuseInProduction,
  requireStoreUrls,
} from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

/**
 * Admin keys that were ever published (docs, earlier defaults): refused in every environment, since anyone
 * who read them could use them. `npm start` generates a random key instead.
 */
export const PUBLISHED_ADMIN_KEYS: readonly string[] = ['dev-admin-key'];

export const configSchema = baseConfigSchema.merge(peersSchema).extend({
  HTTP_PORT: port.default(8084),
  GRPC_PORT: port.default(50054),
  /** Bootstrap admin key: `Authorization: Bearer <key>` on the admin API. Unset: the admin API refuses every call. */
  SESAME_ADMIN_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .min(8, 'must be at least 8 characters')
      .refine((key) => !PUBLISHED_ADMIN_KEYS.includes(key), 'a published key is refused; set a random one')
      .optional(),
  ),
  /** Failed admin-key attempts per caller IP per window before 429 (0: no limit). */
  SESAME_ADMIN_KEY_FAILURES_PER_IP: z.coerce.number().int().min(0).default(20),
  SESAME_ADMIN_KEY_FAILURE_WINDOW_S: z.coerce.number().int().positive().default(300),
  /** Admin email recorded in admin events when a call does not name one (X-Sesame-Admin-Email). */
  SESAME_ADMIN_EMAIL: z
    .string()
    .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')
    .default('admin@localhost.localdomain'),
});
export type MgmtConfig = z.infer<typeof configSchema>;

export function loadMgmtConfig(env: Record<string, string | undefined> = process.env): MgmtConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL', 'SESAME_REDIS_URL']);
  refuseInProduction(
    config.SESAME_ENV,
    (config.SESAME_ADMIN_KEY ?? '').length < 32,
    'SESAME_ADMIN_KEY: must be at least 32 characters in production',
  );
  return config;
}
