import { mailConfigSchema } from '@sesame/mail';
import {
  baseConfigSchema,
  loadConfig,
  peersSchema,
  refuseInProduction,
  requireStoreUrls,
} from '@sesame/platform';
import { smsConfigSchema } from '@sesame/sms';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const seconds = z.coerce.number().int().positive();
const count = z.coerce.number().int().positive();

/** Keys the HMAC of email codes at rest; development only (production refuses it). */
export const DEV_CODE_HASH_KEY = 'dev-only-code-hash-key-0123456789abcdef';

export const configSchema = baseConfigSchema
  .merge(peersSchema)
  .merge(mailConfigSchema)
  .merge(smsConfigSchema)
  .extend({
    HTTP_PORT: port.default(8081),
    GRPC_PORT: port.default(50051),
    SESAME_FLOW_TTL_S: seconds
      .default(1800)
      .describe('A sign-in (an authorization request and its pages) lives this long.'),
    SESAME_PENDING_FLOW_TTL_S: seconds
      .default(600)
      .describe(
        'A sign-in nobody acted on (GET /authorize, no address typed yet) lives this long; once the person identifies, SESAME_FLOW_TTL_S from its start.',
      ),
    SESAME_PENDING_FLOWS_PER_TENANT_MAX: count
      .default(50_000)
      .describe(
        'Pending sign-ins (nobody identified yet) one tenant may hold; beyond, its oldest pending one is evicted (its page then says the sign-in expired). A sign-in whose person typed their address is never evicted.',
      ),
    SESAME_PENDING_FLOWS_MAX: count
      .default(100_000)
      .describe(
        'Pending sign-ins all tenants together may hold (about 1 KiB each); beyond, the oldest pending one is evicted. Records over 1 KiB (very long request parameters) count in a pool of a sixteenth of these caps.',
      ),
    SESAME_PENDING_FLOWS_PER_IP: z.coerce
      .number()
      .int()
      .min(0)
      .default(2_000)
      .describe(
        'Sign-ins one caller IP may start in SESAME_PENDING_FLOW_TTL_S without anyone identifying (a mail sent or a proof gives the place back); beyond, GET /authorize answers 429 with Retry-After. Generous: a NAT of a thousand people still signs in. 0: no limit.',
      ),
    SESAME_SESSION_TTL_S: seconds
      .default(8 * 3600)
      .describe('The browser session (who signed in, CSRF secret).'),
    SESAME_EMAIL_CODE_TTL_S: seconds.default(600).describe('An emailed sign-in code is good this long.'),
    SESAME_EMAIL_CODE_MAX_ATTEMPTS: count
      .default(5)
      .describe('Wrong guesses of one emailed code before it stops working.'),
    SESAME_MAGIC_LINK_TTL_S: seconds
      .default(900)
      .describe('An emailed magic link is good this long, and once.'),
    SESAME_QR_OPEN_TIMEOUT_S: seconds
      .default(30)
      .describe("Desktop to mobile: the phone must open the QR code's link within this (spec 8: 30 s)."),
    SESAME_MAILS_PER_ADDRESS: count
      .default(5)
      .describe(
        'Sign-in mails (codes and links) and phone codes, in one sliding window: per address (or number) and caller IP, per address and tenant, per address over everyone (the ceiling of a distributed flood), per caller IP; and per address for a browser whose signed-in person proved it, counted apart from strangers.',
      ),
    SESAME_MAILS_PER_ADDRESS_TENANT: count
      .default(15)
      .describe('Sign-in mails per address and tenant in the window (see SESAME_MAILS_PER_ADDRESS).'),
    SESAME_MAILS_PER_ADDRESS_GLOBAL: count
      .default(30)
      .describe(
        'Sign-in mails per address over every tenant and caller in the window: the ceiling of a distributed flood.',
      ),
    SESAME_MAILS_PER_IP: count
      .default(30)
      .describe('Sign-in mails per caller IP in the window, any address.'),
    SESAME_MAILS_PER_PROVEN_ADDRESS: count
      .default(10)
      .describe(
        'Sign-in mails per address in the window for a browser whose signed-in person proved that address, counted apart from strangers.',
      ),
    SESAME_MAIL_WINDOW_S: seconds.default(900).describe('The sliding window of the sign-in mail limits.'),
    SESAME_CIBA_SMS_PER_NUMBER: count
      .default(5)
      .describe(
        'CIBA SMS (sliding window of SESAME_CIBA_SMS_WINDOW_S) per phone number and tenant, per number over every tenant (the ceiling), per client, tenant and caller IP.',
      ),
    SESAME_CIBA_SMS_PER_NUMBER_GLOBAL: count
      .default(20)
      .describe('CIBA text messages per phone number over every tenant in the window (the ceiling).'),
    SESAME_CIBA_SMS_PER_CLIENT: count.default(100).describe('CIBA text messages per client in the window.'),
    SESAME_CIBA_SMS_PER_TENANT: count.default(500).describe('CIBA text messages per tenant in the window.'),
    SESAME_CIBA_SMS_PER_IP: count.default(100).describe('CIBA text messages per caller IP in the window.'),
    SESAME_CIBA_SMS_WINDOW_S: seconds
      .default(900)
      .describe('The sliding window of the CIBA text-message limits.'),
    SESAME_ACTIVATION_MAILS_PER_ADDRESS: count
      .default(5)
      .describe(
        'Registration mails of send-activation (sliding window) per address and tenant, per address over every tenant (the ceiling), per client, tenant and caller IP.',
      ),
    SESAME_ACTIVATION_MAILS_PER_ADDRESS_GLOBAL: count
      .default(20)
      .describe('Registration mails per address over every tenant in the window (the ceiling).'),
    SESAME_ACTIVATION_MAILS_PER_CLIENT: count
      .default(100)
      .describe('Registration mails per client in the window.'),
    SESAME_ACTIVATION_MAILS_PER_TENANT: count
      .default(500)
      .describe('Registration mails per tenant in the window.'),
    SESAME_ACTIVATION_MAILS_PER_IP: count
      .default(100)
      .describe('Registration mails per caller IP in the window.'),
    SESAME_ACTIVATION_MAIL_WINDOW_S: seconds
      .default(900)
      .describe('The sliding window of the registration mail limits.'),
    SESAME_DIRECTORY_CACHE_MS: z.coerce
      .number()
      .int()
      .min(0)
      .default(5000)
      .describe(
        'How long a client found through Directory.GetClient is remembered; every admin event empties the cache (client-cache.ts), so this bounds the lag only while the event bus is down. 0 asks every time.',
      ),
    SESAME_CIBA_EXPIRES_IN_S: seconds
      .max(24 * 3600)
      .default(1800)
      .describe('Lifetime of a CIBA request and its link (spec 8: 30 minutes); returned as expires_in.'),
    SESAME_REQUIRE_PAR: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true')
      .describe(
        'PAR (RFC 9126) for every client: /authorize refuses requests that were not pushed to /par first.',
      ),
    SESAME_DPOP_NONCE_SECRET: z
      .string()
      .min(32)
      .optional()
      .describe(
        "DPoP server nonces at /par (RFC 9449 §8); the same secret as token's SESAME_DPOP_NONCE_SECRET. Unset: no nonces.",
      ),
    SESAME_AUTH_FAILURES_PER_CLIENT_IP: z.coerce
      .number()
      .int()
      .min(0)
      .default(20)
      .describe(
        'Failed client authentications at /authorize_ciba per (client_id, IP) and per IP in a window (0: off).',
      ),
    SESAME_AUTH_FAILURES_PER_IP: z.coerce.number().int().min(0).default(100),
    SESAME_AUTH_FAILURE_WINDOW_S: seconds
      .default(300)
      .describe('The window of the failed client authentication limits at /authorize_ciba.'),
    SESAME_CODE_HASH_KEY: z
      .string()
      .min(32)
      .default(DEV_CODE_HASH_KEY)
      .describe('Server-side key of the email-code hashes (at least 32 characters).'),
    SESAME_WEBAUTHN_ORIGINS: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? '')
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().url()))
      .describe(
        "Origins a passkey ceremony may come from, comma-separated (default: SESAME_AUTH_URL's origin). The RP ID is always SESAME_AUTH_URL's host.",
      ),
    SESAME_WEBAUTHN_RP_NAME: z
      .string()
      .min(1)
      .default('Sesame')
      .describe('Shown by the authenticator when a passkey is created.'),
    SESAME_PASSKEY_CHALLENGE_TTL_S: seconds
      .default(180)
      .describe('A passkey challenge (creation or sign-in) is good this long, and once.'),
    SESAME_ENROLLMENT_LINK_TTL_S: seconds
      .max(3600)
      .default(300)
      .describe('An interactive init URL (device enrollment) is good this long, and once.'),
  });
export type AuthConfig = z.infer<typeof configSchema>;

export function loadAuthConfig(env: Record<string, string | undefined> = process.env): AuthConfig {
  const config = loadConfig(configSchema, env);
  requireStoreUrls(config, ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL']);
  refuseInProduction(
    config,
    config.SESAME_CODE_HASH_KEY === DEV_CODE_HASH_KEY,
    'SESAME_CODE_HASH_KEY: the development default is refused in production',
  );
  return config;
}

/** The WebAuthn relying party: RP ID = the auth_url host; origins from config, else the auth_url origin. */
export function webAuthnSettings(config: AuthConfig) {
  const authUrl = new URL(config.SESAME_AUTH_URL);
  return {
    rpId: authUrl.hostname,
    rpName: config.SESAME_WEBAUTHN_RP_NAME,
    origins: config.SESAME_WEBAUTHN_ORIGINS.length
      ? config.SESAME_WEBAUTHN_ORIGINS.map((o) => new URL(o).origin)
      : [authUrl.origin],
    challengeTtlMs: config.SESAME_PASSKEY_CHALLENGE_TTL_S * 1000,
  };
}
