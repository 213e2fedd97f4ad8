import { baseConfigSchema, loadConfig, requireStoreUrls } from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = baseConfigSchema.extend({
  HTTP_PORT: port.default(8085),
  GRPC_PORT: port.default(50055),
});
export type ActivityLogConfig = z.infer<typeof configSchema>;

export function loadActivityLogConfig(env: Record<string, string | undefined> = process.env): ActivityLogConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL']);
  return config;
}
