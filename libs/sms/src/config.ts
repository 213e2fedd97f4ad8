import { ConfigError, type EnvironmentVars, isDevelopmentLike } from '@sesame/platform';
import type { Logger } from 'pino';
import { z } from 'zod';
import { DevSmsOutbox } from './dev-outbox';
import { HttpSmsSender } from './http-sender';
import type { SmsSender } from './port';

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** The SMS variables; services merge this into their own config schema. */
export const smsConfigSchema = z.object({
  SESAME_SMS_URL: optional
    .refine((v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v), {
      message: 'must be an http(s) URL',
    })
    .describe("The provider's Messages resource (https://…); unset means the development outbox."),
  SESAME_SMS_FROM: z
    .string()
    .trim()
    .min(1)
    .default('Sesame')
    .describe('Sender number or name (the From field).'),
  SESAME_SMS_USER: optional.describe('Basic-auth user (account id) and password (token) of the provider.'),
  SESAME_SMS_PASSWORD: optional.describe('Basic-auth password (token) of the SMS provider.'),
});
export type SmsConfig = z.infer<typeof smsConfigSchema>;

/**
 * The HTTP adapter when SESAME_SMS_URL is set; otherwise the in-process outbox, which only development and
 * test may use: anywhere else a text message would silently go nowhere, so the service refuses to start.
 */
export function createSmsSender(config: SmsConfig & EnvironmentVars, logger: Logger): SmsSender {
  if (config.SESAME_SMS_URL) {
    return new HttpSmsSender({
      url: config.SESAME_SMS_URL,
      from: config.SESAME_SMS_FROM,
      user: config.SESAME_SMS_USER,
      password: config.SESAME_SMS_PASSWORD,
      logger,
    });
  }
  if (!isDevelopmentLike(config)) {
    throw new ConfigError([
      `SESAME_SMS_URL: required in ${config.SESAME_ENV} (without it text messages would only be kept in memory and never delivered)`,
    ]);
  }
  return new DevSmsOutbox({ logger });
}
