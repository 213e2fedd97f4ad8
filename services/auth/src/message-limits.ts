import { type KeyValueStore, SendLimiter } from '@sesame/kv';
import type { AuthConfig } from './config';

/** The CIBA SMS limits of the config: per number, client, tenant and caller IP in one sliding window. */
export function cibaSmsLimiter(kv: KeyValueStore, config: AuthConfig): SendLimiter {
  const windowMs = config.SESAME_CIBA_SMS_WINDOW_S * 1000;
  return new SendLimiter(kv, 'ciba_sms', {
    destination: { limit: config.SESAME_CIBA_SMS_PER_NUMBER, windowMs },
    client: { limit: config.SESAME_CIBA_SMS_PER_CLIENT, windowMs },
    tenant: { limit: config.SESAME_CIBA_SMS_PER_TENANT, windowMs },
    ip: { limit: config.SESAME_CIBA_SMS_PER_IP, windowMs },
  });
}

/** The registration mail limits of send-activation: per address, client, tenant and caller IP. */
export function activationMailLimiter(kv: KeyValueStore, config: AuthConfig): SendLimiter {
  const windowMs = config.SESAME_ACTIVATION_MAIL_WINDOW_S * 1000;
  return new SendLimiter(kv, 'activation_mail', {
    destination: { limit: config.SESAME_ACTIVATION_MAILS_PER_ADDRESS, windowMs },
    client: { limit: config.SESAME_ACTIVATION_MAILS_PER_CLIENT, windowMs },
    tenant: { limit: config.SESAME_ACTIVATION_MAILS_PER_TENANT, windowMs },
    ip: { limit: config.SESAME_ACTIVATION_MAILS_PER_IP, windowMs },
  });
}
