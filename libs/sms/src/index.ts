export {
  type OutgoingSms,
  type SmsSender,
  type StoredSms,
  SmsDeliveryError,
  InvalidSmsError,
  MAX_SMS_TEXT,
  maskNumber,
} from './port';
export { HttpSmsSender, type HttpSmsSenderOptions } from './http-sender';
export { DevSmsOutbox, type DevSmsOutboxOptions } from './dev-outbox';
export { devSmsRouter, renderDevSmsPage } from './dev-sms-routes';
export { smsConfigSchema, type SmsConfig, createSmsSender } from './config';
