export {
  type OutgoingMail,
  type MailSender,
  type StoredMail,
  MailDeliveryError,
  InvalidMailError,
  checkMail,
} from './port';
export { SmtpMailSender, type SmtpMailSenderOptions } from './smtp';
export { DevOutbox, type DevOutboxOptions } from './dev-outbox';
export { devMailRouter } from './dev-mail-routes';
export { renderDevMailPage, escapeHtml } from './dev-mail-page';
export { mailConfigSchema, type MailConfig, createMailSender } from './config';
