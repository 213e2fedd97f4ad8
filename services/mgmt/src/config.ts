import { baseConfigSchema, loadConfig, peersSchema, requireStoreUrls } from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = baseConfigSchema.merge(peersSchema).extend({
  HTTP_PORT: port.default(8084),
  GRPC_PORT: port.default(50054),
});
export type MgmtConfig = z.infer<typeof configSchema>;

export function loadMgmtConfig(env: Record<string, string | undefined> = process.env): MgmtConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL']);
  return config;
}
