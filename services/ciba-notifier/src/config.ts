import {
  type OutboundPolicy,
  baseConfigSchema,
  isDevelopmentLike,
  kindOf,
  loadConfig,
  refuseInProduction,
} from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

export const configSchema = baseConfigSchema.extend({
  HTTP_PORT: port.default(8086),
  GRPC_PORT: port.default(50056),
  CIBA_PING_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(20)
    .default(5)
    .describe('Attempts per ping before giving up (with exponential backoff between them).'),
  CIBA_PING_BACKOFF_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(500)
    .describe('Wait before the second attempt of a ping; doubled for each further attempt.'),
  CIBA_PING_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(30_000)
    .default(3_000)
    .describe(
      "One attempt's deadline: short, so a slow endpoint costs its own queue little and nobody else anything.",
    ),
  CIBA_PING_CONCURRENCY_PER_ENDPOINT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(4)
    .describe(
      "Pings in flight at once per notification endpoint (origin); more wait in that endpoint's own queue.",
    ),
  CIBA_PING_QUEUE_PER_ENDPOINT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(1_000)
    .describe(
      'Pings waiting per endpoint; beyond it the oldest are given up (the client can still poll /token).',
    ),
  SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'Allows notification endpoints on loopback addresses (development and tests). Unset: on in the development kind (the embedded default), off elsewhere; refused in a production environment.',
    ),
});
export type CibaNotifierConfig = z.infer<typeof configSchema>;

export function loadCibaNotifierConfig(
  env: Record<string, string | undefined> = process.env,
): CibaNotifierConfig {
  const config = loadConfig(configSchema, env, ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS']);
  refuseInProduction(
    config,
    config.SESAME_ALLOW_LOOPBACK_NOTIFICATIONS === 'true',
    'SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: loopback notification endpoints are refused in production',
  );
  return config;
}

/** Where pings may go: https only outside development and test; loopback only when allowed (see above). */
export function notificationPolicy(config: CibaNotifierConfig): OutboundPolicy {
  const loopback = config.SESAME_ALLOW_LOOPBACK_NOTIFICATIONS;
  return {
    allowHttp: isDevelopmentLike(config),
    allowLoopback: loopback === undefined ? kindOf(config) === 'development' : loopback === 'true',
  };
}
