import { z } from 'zod';

/** One text message as the flows compose it. */
export interface OutgoingSms {
  /** E.164 (leading +). */
  to: string;
  text: string;
}

/** Where text messages go: the HTTP provider in deployments, the in-process outbox in development and tests. */
export interface SmsSender {
  send(sms: OutgoingSms): Promise<{ id: string }>;
  close(): Promise<void>;
}

/** A message the development outbox kept; sentAt is an ISO 8601 timestamp. */
export interface StoredSms {
  id: string;
  to: string;
  text: string;
  sentAt: string;
}

/**
 * Delivery failed. `rejected`: the provider refused this message (a number it cannot reach, a bad sender);
 * `unavailable`: the provider could not be reached or failed. The message never repeats the text (it carries
 * a link or a code) nor the provider's credentials.
 */
export class SmsDeliveryError extends Error {
  constructor(
    message: string,
    readonly kind: 'rejected' | 'unavailable',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SmsDeliveryError';
  }
}

/** The message itself is unusable (not an E.164 number, empty or too long): a caller's bug. */
export class InvalidSmsError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid sms: ${problems.join('; ')}`);
    this.name = 'InvalidSmsError';
  }
}

/** Ten concatenated segments: more is a bug, not a message anyone reads. */
export const MAX_SMS_TEXT = 1530;

const outgoingSmsSchema = z.object({
  to: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form'),
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_SMS_TEXT, `must be at most ${MAX_SMS_TEXT} characters`),
});

export function checkSms(sms: OutgoingSms): OutgoingSms {
  const parsed = outgoingSmsSchema.safeParse(sms);
  if (!parsed.success) {
    throw new InvalidSmsError(parsed.error.issues.map((i) => `${i.path.join('.') || 'sms'}: ${i.message}`));
  }
  return parsed.data;
}

/** What logs may say about a recipient: the country code part and the last two digits. */
export function maskNumber(to: string): string {
  return `${to.slice(0, 3)}…${to.slice(-2)}`;
}
