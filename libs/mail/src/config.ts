import { ConfigError, type EnvironmentVars, isDevelopmentLike } from '@sesame/platform';
import type { Logger } from 'pino';
import { z } from 'zod';
import { DevOutbox } from './dev-outbox';
import type { MailSender } from './port';
import { SmtpMailSender } from './smtp';

const smtpUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .superRefine((v, ctx) => {
    const problem = v === undefined ? undefined : smtpUrlProblem(v);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

/** What is wrong with an SMTP URL, in words that never repeat the value: it may carry the relay's password. */
function smtpUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be a URL (smtp://host:port or smtps://host:port)';
  const url = new URL(value);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return 'must start with smtp:// or smtps://';
  if (!url.hostname) return 'must name a host';
  return undefined;
}

/** The mail variables; services merge this into their own config schema. */
export const mailConfigSchema = z.object({
  SESAME_SMTP_URL: smtpUrl.describe(
    'smtp://[user:pass@]host[:port] or smtps://…; unset means the development outbox.',
  ),
  SESAME_MAIL_FROM: z
    .string()
    .trim()
    .min(1)
    .default('Sesame <no-reply@localhost>')
    .describe('The From header of every mail Sesame sends (sign-in codes, links, invitations).'),
});
export type MailConfig = z.infer<typeof mailConfigSchema>;

/**
 * SMTP when SESAME_SMTP_URL is set; otherwise the in-process outbox, which only development and test may
 * use: anywhere else sign-in mail would silently go nowhere, so the service refuses to start.
 */
export function createMailSender(config: MailConfig & EnvironmentVars, logger: Logger): MailSender {
  if (config.SESAME_SMTP_URL) {
    return new SmtpMailSender({ url: config.SESAME_SMTP_URL, from: config.SESAME_MAIL_FROM, logger });
  }
  if (!isDevelopmentLike(config)) {
    throw new ConfigError([
      `SESAME_SMTP_URL: required in ${config.SESAME_ENV} (without it mail would only be kept in memory and never delivered)`,
    ]);
  }
  return new DevOutbox({ logger });
}
