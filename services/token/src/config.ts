import { baseConfigSchema, loadConfig, peersSchema, requireStoreUrls } from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = baseConfigSchema.merge(peersSchema).extend({
  HTTP_PORT: port.default(8082),
  GRPC_PORT: port.default(50052),
});
export type TokenConfig = z.infer<typeof configSchema>;

export function loadTokenConfig(env: Record<string, string | undefined> = process.env): TokenConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS']);
  return config;
}
