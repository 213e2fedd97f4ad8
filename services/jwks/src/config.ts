import { baseConfigSchema, loadConfig, refuseInProduction, requireStoreUrls } from '@sesame/platform';
import { z } from 'zod';

export const DEV_KEY_ENCRYPTION_KEY = 'ZGV2LW9ubHkta2V5LWVuY3J5cHRpb24ta2V5LTMyYiE'; // base64url of 32 bytes, dev only

export const configSchema = baseConfigSchema.extend({
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8083),
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50053),
  /** AES-256-GCM key-encryption key for private keys at rest: 32 bytes, base64url. */
  SESAME_KEY_ENCRYPTION_KEY: z
    .string()
    .default(DEV_KEY_ENCRYPTION_KEY)
    .refine((v) => Buffer.from(v, 'base64url').length === 32, 'must be 32 bytes, base64url-encoded'),
});
export type JwksConfig = z.infer<typeof configSchema>;

export function loadJwksConfig(env: Record<string, string | undefined> = process.env): JwksConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_MONGO_URL']);
  refuseInProduction(
    config.SESAME_ENV,
    config.SESAME_KEY_ENCRYPTION_KEY === DEV_KEY_ENCRYPTION_KEY,
    'SESAME_KEY_ENCRYPTION_KEY: the development default is refused in production; set a random 32-byte key',
  );
  return config;
}
