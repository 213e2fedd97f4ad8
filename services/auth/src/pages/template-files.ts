import type { PageName } from './views';

/**
 * Where each page's template lives, by its path under src/: with the step or journey that shows it (its
 * handler, view model and page test beside it); the pages every journey shares stay in pages/. The renderer
 * compiles every one at startup, and scripts/build.mjs copies every .hbs under src/ into the bundle.
 */
export const TEMPLATE_FILES: Readonly<Record<PageName, string>> = {
  identify: 'steps/identify/identify.hbs',
  'passkey-offer': 'steps/passkey/passkey-offer.hbs',
  'email-code': 'steps/email-code/email-code.hbs',
  'magic-link-sent': 'steps/magic-link/sent.hbs',
  'magic-link-confirm': 'steps/magic-link/confirm.hbs',
  'magic-link-done': 'steps/magic-link/done.hbs',
  consent: 'steps/consent/consent.hbs',
  'select-account': 'journeys/sign-in/select-account.hbs',
  'ciba-start': 'journeys/ciba/start.hbs',
  phone: 'steps/phone-number/phone-number.hbs',
  'phone-code': 'steps/phone-number/code.hbs',
  'enroll-passkey': 'journeys/enrollment/passkey.hbs',
  'mobile-qr': 'steps/qr/qr.hbs',
  'qr-expired': 'steps/qr/expired.hbs',
  'mobile-done': 'steps/qr/phone-done.hbs',
  'register-start': 'journeys/registration/start.hbs',
  'register-passkey': 'journeys/registration/passkey.hbs',
  'register-complete': 'journeys/registration/complete.hbs',
  'register-invalid': 'journeys/registration/invalid.hbs',
  'link-invalid': 'pages/link-invalid/link-invalid.hbs',
  error: 'pages/error/error.hbs',
  done: 'pages/done/done.hbs',
  'logout-confirm': 'journeys/logout/confirm.hbs',
  'number-match': 'steps/number-match/number-match.hbs',
  welcome: 'pages/welcome/welcome.hbs',
};
