import { type KeyValueStore, type MessagePurpose, SendLimiter } from '@sesame/kv';
import type { AuthConfig } from './config';

/** A SendLimiter over one sliding window: at most the given count per destination, client, tenant and IP. */
function windowLimiter(
  kv: KeyValueStore,
  purpose: MessagePurpose,
  windowS: number,
  perDestination: number,
  perClient: number,
  perTenant: number,
  perIp: number,
): SendLimiter {
  const windowMs = windowS * 1000;
  return new SendLimiter(kv, purpose, {
    destination: { limit: perDestination, windowMs },
    client: { limit: perClient, windowMs },
    tenant: { limit: perTenant, windowMs },
    ip: { limit: perIp, windowMs },
  });
}

/** The CIBA SMS limits of the config: per number, client, tenant and caller IP in one sliding window. */
export function cibaSmsLimiter(kv: KeyValueStore, config: AuthConfig): SendLimiter {
  return windowLimiter(
    kv,
    'ciba_sms',
    config.SESAME_CIBA_SMS_WINDOW_S,
    config.SESAME_CIBA_SMS_PER_NUMBER,
    config.SESAME_CIBA_SMS_PER_CLIENT,
    config.SESAME_CIBA_SMS_PER_TENANT,
    config.SESAME_CIBA_SMS_PER_IP,
  );
}

/** The registration mail limits of send-activation: per address, client, tenant and caller IP. */
export function activationMailLimiter(kv: KeyValueStore, config: AuthConfig): SendLimiter {
  return windowLimiter(
    kv,
    'activation_mail',
    config.SESAME_ACTIVATION_MAIL_WINDOW_S,
    config.SESAME_ACTIVATION_MAILS_PER_ADDRESS,
    config.SESAME_ACTIVATION_MAILS_PER_CLIENT,
    config.SESAME_ACTIVATION_MAILS_PER_TENANT,
    config.SESAME_ACTIVATION_MAILS_PER_IP,
  );
}
