import { baseConfigSchema, loadConfig, peersSchema, requireStoreUrls } from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = baseConfigSchema.merge(peersSchema).extend({
  HTTP_PORT: port.default(8081),
  GRPC_PORT: port.default(50051),
});
export type AuthConfig = z.infer<typeof configSchema>;

export function loadAuthConfig(env: Record<string, string | undefined> = process.env): AuthConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL']);
  return config;
}
