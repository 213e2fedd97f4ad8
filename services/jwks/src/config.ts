import {
  baseConfigSchema,
  isDevelopmentLike,
  loadConfig,
  refuseInProduction,
  requireStoreUrls,
} from '@sesame/platform';
import { z } from 'zod';
import type { KeyTimings } from './keys/key';

export const DEV_KEY_ENCRYPTION_KEY = 'ZGV2LW9ubHkta2V5LWVuY3J5cHRpb24ta2V5LTMyYiE'; // base64url of 32 bytes, dev only

const ms = z.coerce.number().int().min(0);
const DAY_MS = 24 * 60 * 60 * 1000;

export const configSchema = baseConfigSchema.extend({
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8083),
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50053),
  SESAME_KEY_ENCRYPTION_KEY: z
    .string()
    .default(DEV_KEY_ENCRYPTION_KEY)
    .refine((v) => Buffer.from(v, 'base64url').length === 32, 'must be 32 bytes, base64url-encoded')
    .describe('AES-256-GCM key-encryption key for private keys at rest: 32 bytes, base64url.'),
  SESAME_KEY_ROTATION_INTERVAL_MS: ms
    .default(30 * DAY_MS)
    .describe('Scheduled rotation: a new key pair every interval; 0 disables (rotation on demand only).'),
  SESAME_KEY_PUBLISH_DELAY_MS: ms
    .optional()
    .describe(
      'How long a new key is published in /jwks before it signs anything (so RPs that cached the JWK set refetch it first). Default: 60 s, 2 s in development and test.',
    ),
  SESAME_MAX_TOKEN_LIFETIME_S: z.coerce
    .number()
    .int()
    .positive()
    .default(3600)
    .describe(
      'Longest lifetime of anything signed with a key (ID tokens): a retired key stays published this long.',
    ),
  SESAME_KEY_RETIRE_MARGIN_MS: ms
    .default(5 * 60 * 1000)
    .describe('Added to the token lifetime before a retired key leaves /jwks: clock skew and RP caches.'),
  SESAME_KEY_POLL_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5000)
    .describe('How often the key ring is reloaded from the store (keys activated by another jwks pod).'),
});
export type JwksConfig = z.infer<typeof configSchema>;

export function loadJwksConfig(env: Record<string, string | undefined> = process.env): JwksConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_MONGO_URL']);
  refuseInProduction(
    config,
    config.SESAME_KEY_ENCRYPTION_KEY === DEV_KEY_ENCRYPTION_KEY,
    'SESAME_KEY_ENCRYPTION_KEY: the development default is refused in production; set a random 32-byte key',
  );
  return config;
}

/** The rotation timings of a configuration, with the environment-dependent publish delay resolved. */
export function keyTimings(config: JwksConfig): KeyTimings {
  return {
    rotationIntervalMs: config.SESAME_KEY_ROTATION_INTERVAL_MS,
    publishDelayMs: config.SESAME_KEY_PUBLISH_DELAY_MS ?? (isDevelopmentLike(config) ? 2000 : 60_000),
    retireAfterMs: config.SESAME_MAX_TOKEN_LIFETIME_S * 1000 + config.SESAME_KEY_RETIRE_MARGIN_MS,
  };
}
