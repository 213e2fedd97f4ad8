import { baseConfigSchema, loadConfig, requireStoreUrls } from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = baseConfigSchema.extend({
  HTTP_PORT: port.default(8086),
  GRPC_PORT: port.default(50056),
  /** Attempts per ping before giving up (with exponential backoff between them). */
  CIBA_PING_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  CIBA_PING_BACKOFF_MS: z.coerce.number().int().min(1).default(500),
  CIBA_PING_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
});
export type CibaNotifierConfig = z.infer<typeof configSchema>;

export function loadCibaNotifierConfig(
  env: Record<string, string | undefined> = process.env,
): CibaNotifierConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS']);
  return config;
}
