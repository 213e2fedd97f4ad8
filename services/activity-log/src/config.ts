import { baseConfigSchema, loadConfig } from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const days = z.coerce.number().int().min(1).max(36_500);

export const configSchema = baseConfigSchema.extend({
  HTTP_PORT: port.default(8085),
  GRPC_PORT: port.default(50055),
  SESAME_ACTIVITY_RETENTION_DAYS: days
    .default(90)
    .describe(
      'Activity log records are deleted this many days after their flow started (TTL index on expireAt).',
    ),
  SESAME_ADMIN_RETENTION_DAYS: days
    .default(365)
    .describe('Admin events are deleted this many days after they happened.'),
  SESAME_ACTIVITY_CONSUMER_GROUP: z
    .string()
    .regex(/^[\w.-]{1,200}$/)
    .default('sesame-activity-log')
    .describe('Prefix of the Kafka consumer groups: `<prefix>.flow-events` and `<prefix>.admin-events`.'),
  SESAME_ACTIVITY_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(1000)
    .describe('Most flow events folded in one batch (one Mongo read and one bulkWrite).'),
  SESAME_FUNNEL_ABANDON_AFTER_S: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(1800)
    .describe(
      'A started sign-in with no completion and no event for this long counts as abandoned (sign-in funnel).',
    ),
  SESAME_FUNNEL_APPS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(200)).max(20, 'at most 20 apps'))
    .describe(
      'App ids whose sign-ins get their own `app` label in the funnel (comma-separated, at most 20); every other app counts as `other`, so the label set stays bounded.',
    ),
  SESAME_FUNNEL_SWEEP_MS: z.coerce
    .number()
    .int()
    .min(10)
    .default(60_000)
    .describe('How often open flows are checked for abandonment.'),
});
export type ActivityLogConfig = z.infer<typeof configSchema>;

export function loadActivityLogConfig(
  env: Record<string, string | undefined> = process.env,
): ActivityLogConfig {
  return loadConfig(configSchema, env, ['SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL']);
}
