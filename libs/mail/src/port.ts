import { z } from 'zod';

/** One message as the flows compose it: always both a plain-text and an HTML body. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The sender's display name (a tenant's branding); the address stays the configured one. */
  fromName?: string;
  /** Where replies go (a tenant's branding). */
  replyTo?: string;
  /**
   * What logs may say about this mail (never sent): its template (sign-in-code, magic-link, ...), language
   * and tenant. The subject and bodies carry codes and links, so logs name the mail by these instead.
   */
  kind?: string;
  locale?: string;
  tenantId?: string;
}

/** Where mail goes: SMTP in deployments, the in-process outbox in development and tests. */
export interface MailSender {
  send(mail: OutgoingMail): Promise<{ id: string }>;
  close(): Promise<void>;
}

/** A message the development outbox kept; sentAt is an ISO 8601 timestamp. */
export interface StoredMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
  fromName?: string;
  replyTo?: string;
}

/**
 * Delivery failed (connection, authentication, rejection). The message names the recipient's domain and
 * the transport's error code only: never the SMTP URL, its credentials or the message body.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly responseCode: number | undefined,
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}

/** The message itself is unusable (not an address, a line break in the subject): a caller's bug. */
export class InvalidMailError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid mail: ${problems.join('; ')}`);
    this.name = 'InvalidMailError';
  }
}

const outgoingMailSchema = z.object({
  to: z.string().email('must be one email address'),
  // A line break would start a new header: refused before any transport sees it.
  subject: z
    .string()
    .min(1, 'must not be empty')
    .refine((s) => !/[\r\n]/.test(s), 'must be a single line'),
  text: z.string(),
  html: z.string(),
  // Header values: one line, no quotes or angle brackets that could forge another address.
  fromName: z
    .string()
    .max(80)
    .refine((s) => !/[\r\n"<>]/.test(s), 'must be one line without quotes or angle brackets')
    .optional(),
  replyTo: z.string().email('must be one email address').optional(),
  kind: z.string().max(64).optional(),
  locale: z.string().max(35).optional(),
  tenantId: z.string().max(128).optional(),
});

export function checkMail(mail: OutgoingMail): OutgoingMail {
  const parsed = outgoingMailSchema.safeParse(mail);
  if (!parsed.success) {
    throw new InvalidMailError(parsed.error.issues.map((i) => `${i.path.join('.') || 'mail'}: ${i.message}`));
  }
  return parsed.data;
}

/** The part of an address after the @: what logs may say about a recipient. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Everything a log line may say about one mail: kind, locale, tenant, the recipient's domain. Never the
 * subject (a tenant may put {{code}} in it), the bodies, the address or the link: a log reader could sign in.
 */
export function mailLogFields(mail: OutgoingMail): Record<string, string> {
  return {
    ...(mail.kind ? { kind: mail.kind } : {}),
    ...(mail.locale ? { locale: mail.locale } : {}),
    ...(mail.tenantId ? { tenantId: mail.tenantId } : {}),
    toDomain: domainOf(mail.to),
  };
}
