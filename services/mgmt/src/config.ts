import {
  baseConfigSchema,
  loadConfig,
  peersSchema,
  refuseInProduction,
  requireStoreUrls,
} from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

/** The bootstrap admin key of development and `npm start`; refused in production. */
export const DEV_ADMIN_KEY = 'dev-admin-key';

export const configSchema = baseConfigSchema.merge(peersSchema).extend({
  HTTP_PORT: port.default(8084),
  GRPC_PORT: port.default(50054),
  /** Bootstrap admin key: `Authorization: Bearer <key>` on the admin API. */
  SESAME_ADMIN_KEY: z.string().min(8, 'must be at least 8 characters').default(DEV_ADMIN_KEY),
  /** Admin email recorded in admin events when a call does not name one (X-Sesame-Admin-Email). */
  SESAME_ADMIN_EMAIL: z
    .string()
    .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')
    .default('admin@localhost.localdomain'),
});
export type MgmtConfig = z.infer<typeof configSchema>;

export function loadMgmtConfig(env: Record<string, string | undefined> = process.env): MgmtConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL']);
  refuseInProduction(
    config.SESAME_ENV,
    config.SESAME_ADMIN_KEY === DEV_ADMIN_KEY,
    'SESAME_ADMIN_KEY: the development default is refused in production; set a random key of at least 32 characters',
  );
  refuseInProduction(
    config.SESAME_ENV,
    config.SESAME_ADMIN_KEY.length < 32,
    'SESAME_ADMIN_KEY: must be at least 32 characters in production',
  );
  return config;
}
