import { baseConfigSchema, loadConfig, requireStoreUrls } from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = baseConfigSchema.extend({
  HTTP_PORT: port.default(8086),
  GRPC_PORT: port.default(50056),
});
export type CibaNotifierConfig = z.infer<typeof configSchema>;

export function loadCibaNotifierConfig(env: Record<string, string | undefined> = process.env): CibaNotifierConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS']);
  return config;
}
