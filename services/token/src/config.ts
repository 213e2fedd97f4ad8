import { baseConfigSchema, loadConfig, peersSchema } from '@sesame/platform';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const seconds = z.coerce.number().int().positive();

export const configSchema = baseConfigSchema.merge(peersSchema).extend({
  HTTP_PORT: port.default(8082),
  GRPC_PORT: port.default(50052),
  SESAME_CODE_TTL_S: seconds
    .default(60)
    .describe('Lifetime of an authorization code between IssueCode and its redemption.'),
  SESAME_ACCESS_TOKEN_TTL_S: seconds
    .default(3600)
    .describe('Lifetime of an access token for an end-user grant (code or CIBA).'),
  SESAME_API_TOKEN_TTL_S: seconds
    .default(3600)
    .describe('Lifetime of a management bearer token (client_credentials).'),
  SESAME_ID_TOKEN_TTL_S: seconds
    .default(3600)
    .describe("Lifetime of an ID token; must not exceed the jwks service's SESAME_MAX_TOKEN_LIFETIME_S."),
  SESAME_CIBA_EXPIRES_IN_S: seconds
    .default(1800)
    .describe(
      'Default lifetime of a CIBA auth_req_id when StartBackchannel does not give one (spec 8: 30 minutes).',
    ),
  SESAME_CIBA_INTERVAL_S: seconds.default(1).describe('CIBA polling interval (spec 8: 1 second).'),
  SESAME_CIBA_EXPIRED_GRACE_S: seconds
    .default(600)
    .describe('How long an expired auth_req_id still answers expired_token (instead of invalid_grant).'),
  SESAME_DIRECTORY_CACHE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5000)
    .describe(
      'How long successful Directory answers (client and API-credential authentications, client lookups) are remembered in-process (0 disables). Every admin event (sesame.admin-events.v1) empties the cache on every pod, so a revoked API credential or a removed app stops authenticating as soon as the event arrives; this bound only matters if the event bus is down.',
    ),
  SESAME_AUTH_FAILURES_PER_CLIENT_IP: z.coerce
    .number()
    .int()
    .min(0)
    .default(20)
    .describe(
      'Failed client authentications at /token per (client_id, caller IP) per window before 429 (0: no limit).',
    ),
  SESAME_AUTH_FAILURES_PER_IP: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .describe(
      'Failed client authentications at /token per caller IP per window, any client_id (0: no limit).',
    ),
  SESAME_AUTH_FAILURE_WINDOW_S: seconds
    .default(300)
    .describe('The window of the failed client authentication limits at /token.'),
  SESAME_DPOP_NONCE_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe(
      'DPoP server nonces (RFC 9449 §8): when set, every DPoP proof at /token and /userinfo must carry a nonce derived from this secret (the same on every pod, and in auth for /par); unset: no nonces.',
    ),
});
export type TokenConfig = z.infer<typeof configSchema>;

export function loadTokenConfig(env: Record<string, string | undefined> = process.env): TokenConfig {
  return loadConfig(configSchema, env, ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS']);
}
