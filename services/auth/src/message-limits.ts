import { type KeyValueStore, type MessagePurpose, SendLimiter } from '@sesame/kv';
import type { AuthConfig } from './config';

interface WindowLimits {
  windowS: number;
  /** Per destination and tenant: one tenant's requests cannot use up another tenant's allowance. */
  perDestinationTenant: number;
  /** Per destination over every tenant: the ceiling of a flood through many tenants. */
  perDestination: number;
  perClient: number;
  perTenant: number;
  perIp: number;
}

/** A SendLimiter over one sliding window. */
function windowLimiter(kv: KeyValueStore, purpose: MessagePurpose, l: WindowLimits): SendLimiter {
  const windowMs = l.windowS * 1000;
  return new SendLimiter(kv, purpose, {
    destination_tenant: { limit: l.perDestinationTenant, windowMs },
    destination: { limit: l.perDestination, windowMs },
    client: { limit: l.perClient, windowMs },
    tenant: { limit: l.perTenant, windowMs },
    ip: { limit: l.perIp, windowMs },
  });
}

/**
 * The CIBA SMS limits of the config: per number and tenant, per number (all tenants), client, tenant and
 * caller IP in one sliding window. Not per (number, caller IP): the caller is an RP's server, and tenants
 * behind one egress address would hold each other.
 */
export function cibaSmsLimiter(kv: KeyValueStore, config: AuthConfig): SendLimiter {
  return windowLimiter(kv, 'ciba_sms', {
    windowS: config.SESAME_CIBA_SMS_WINDOW_S,
    perDestinationTenant: config.SESAME_CIBA_SMS_PER_NUMBER,
    perDestination: config.SESAME_CIBA_SMS_PER_NUMBER_GLOBAL,
    perClient: config.SESAME_CIBA_SMS_PER_CLIENT,
    perTenant: config.SESAME_CIBA_SMS_PER_TENANT,
    perIp: config.SESAME_CIBA_SMS_PER_IP,
  });
}

/** The registration mail limits of send-activation: per address and tenant, per address, client, tenant and caller IP. */
export function activationMailLimiter(kv: KeyValueStore, config: AuthConfig): SendLimiter {
  return windowLimiter(kv, 'activation_mail', {
    windowS: config.SESAME_ACTIVATION_MAIL_WINDOW_S,
    perDestinationTenant: config.SESAME_ACTIVATION_MAILS_PER_ADDRESS,
    perDestination: config.SESAME_ACTIVATION_MAILS_PER_ADDRESS_GLOBAL,
    perClient: config.SESAME_ACTIVATION_MAILS_PER_CLIENT,
    perTenant: config.SESAME_ACTIVATION_MAILS_PER_TENANT,
    perIp: config.SESAME_ACTIVATION_MAILS_PER_IP,
  });
}
