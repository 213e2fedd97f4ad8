// Over 300 lines on purpose: the type of every hosted page's view (data only), one interface per page, so the
// renderer checks each page's fields in one place.
/**
 * What the flow hands the renderer, per page. Every text shown comes from the catalogs; views carry
 * only data (names, addresses, URLs) and choices among fixed keys. Every URL and form action must be a
 * same-origin path (`/…`): the renderer refuses anything else.
 */

import type { NumberMatchView } from './number-match-context';

/** Every page with a form gets the CSRF token of the browser session; it is posted as `csrf`. */
export interface Csrf {
  csrf: string;
}

export interface IdentifyView extends Csrf {
  appName: string;
  /**
   * "Use my phone" is offered as a small "Use another device" link instead (this browser is a phone or a
   * tablet: desktop to mobile would show it a QR code to scan with itself).
   */
  mobileIsSecondary?: boolean;
  action: string;
  /** Prefill (login_hint or what was typed before an error). */
  email?: string;
  error?: 'invalidEmail' | 'rateLimited' | 'mailFailed';
  /**
   * "Use a passkey" and passkey autofill on the email field (pages/assets/passkeys.js): POST JSON to
   * `optionsUrl` for the ceremony's options, then the browser's response to `verifyUrl`.
   */
  passkey?: { optionsUrl: string; verifyUrl: string };
  /** "Use my phone" (desktop to mobile): a form with only the CSRF token. */
  mobileAction?: string;
}

/** After an email proof on a device without a passkey: "Create a passkey", or "Not now" (a form). */
export interface PasskeyOfferView extends Csrf {
  appName: string;
  email: string;
  optionsUrl: string;
  verifyUrl: string;
  notNowAction: string;
}

/**
 * prompt select_account with a live single sign-on session: continue as the signed-in person, or use another
 * account (one form, `choice` continue or other).
 */
export interface SelectAccountView extends Csrf {
  appName: string;
  email: string;
  action: string;
}

export interface EmailCodeView extends Csrf {
  email: string;
  verifyAction: string;
  magicLinkAction: string;
  resendAction: string;
  /** Back to the identify page. */
  changeEmailUrl: string;
  /** tooManyAttempts: the wrong tries used up the code (it is dead; the page offers a new one first). */
  error?: 'wrongCode' | 'codeExpired' | 'tooManyAttempts' | 'invalidFormat' | 'rateLimited' | 'mailFailed';
  /** Shown with a wrong-code error. */
  attemptsLeft?: number;
  /** A new code was just sent. */
  resent?: boolean;
  /** The send limits allow the next code only after this many seconds (the resend timer); 0 or absent: now. */
  resendWaitSeconds?: number;
}

export interface MagicLinkSentView {
  email: string;
  /** GET → JSON `{"state": "pending" | "ready" | "expired"}`. */
  statusUrl: string;
  continueUrl: string;
  /** When the flow expires (epoch milliseconds): the page script stops polling then. */
  expiresAt: number;
  restartUrl?: string;
  /** The two digits to pick on the device where the link is opened, if that is another one (number-match). */
  matchCode?: string;
  /** Shown when the sign-in expired while waiting: **Back to <app>** (the RP with access_denied). */
  back?: ErrorBack;
}

export interface MagicLinkConfirmView extends Csrf {
  appName: string;
  email: string;
  action: string;
}

export type MagicLinkDoneView = Record<string, never>;

/**
 * Desktop to mobile: the QR code of the one-time mobile link (its SVG, drawn on the server), the same link as
 * text for people who cannot scan, and the wait for the phone (the flow-wait script polls `statusUrl`).
 */
export interface MobileQrView extends Csrf {
  /** `enroll`: "Add a phone instead" of a device enrollment; `register`: "Use my phone" of a registration. */
  purpose?: 'sign-in' | 'enroll' | 'register';
  appName: string;
  /** After the automatic QR (an address was typed): "Use an email code instead", a form. */
  emailInsteadAction?: string;
  /** An enrollment's QR: **Cancel** on the computer too (a form; the RP gets access_denied). */
  cancelAction?: string;
  qrSvg: string;
  /** The link's path (`/m/<token>`) and, as shown, its full URL on auth_url. */
  linkPath: string;
  linkText: string;
  /** How long the phone has to open it, in seconds (spec 8). */
  seconds: number;
  statusUrl: string;
  continueUrl: string;
  expiresAt: number;
  /** The phone opened the link: no QR any more, only the wait. */
  opened?: boolean;
  /** Until when this QR's link may be opened (epoch ms): the page counts it down (pages/assets/qr-controls.js). */
  openBy?: number;
  /** **Show a new code**: a form (CSRF only) drawing a new one-time link (new_qr_generated). */
  newCodeAction?: string;
  /** svc_aux_link / svc_aux_link_title: an https URL whose prefix /authorize checked. */
  auxLink?: { href: string; title?: string };
  /** A sign-in's QR: the two digits the phone asks the person to pick (number-match). */
  matchCode?: string;
}

/**
 * A sign-in's QR whose open time passed unopened (its link is dead): **Show a new code**, **Use an email code
 * instead** (when an address was typed), **Cancel** (back to the sign-in page) and **Back to <app>** (the RP gets
 * unsupported_browser). Every action is a form with the CSRF token.
 */
export interface QrExpiredView extends Csrf {
  appName: string;
  /** How long a code could be opened, in seconds (spec 8). */
  seconds: number;
  newCodeAction: string;
  emailInsteadAction?: string;
  cancelAction: string;
  backAction: string;
}

/**
 * The phone's last page: done (go back to the computer), declined there, refused by a rule, or stopped by a
 * wrong number picked (number-match).
 */
export interface MobileDoneView {
  outcome?: 'done' | 'declined' | 'refused' | 'mismatch';
}

/** Asks for the mobile number to verify (acr ts.svc.iac.phone_number). */
export interface PhoneView extends Csrf {
  appName: string;
  action: string;
  phone?: string;
  error?: 'invalidPhone' | 'rateLimited' | 'smsFailed';
}

/** The 6-digit SMS code for that number. */
export interface PhoneCodeView extends Csrf {
  phone: string;
  verifyAction: string;
  /** **Send a new code** to the same number (a form; throttled like the first). */
  resendAction: string;
  changePhoneUrl: string;
  /** tooManyAttempts: the wrong tries used up the code (it is dead; the page offers a new one first). */
  error?: 'wrongCode' | 'codeExpired' | 'tooManyAttempts' | 'invalidFormat' | 'rateLimited' | 'smsFailed';
  attemptsLeft?: number;
  /** A new code was just sent. */
  resent?: boolean;
  /** The send limits allow the next code only after this many seconds (the resend timer); 0 or absent: now. */
  resendWaitSeconds?: number;
}

/** The first page of a CIBA link: who asks, the binding_message to compare, and Continue (a POST). */
export interface CibaStartView extends Csrf {
  appName: string;
  bindingMessage?: string;
  action: string;
}

/**
 * Interactive device enrollment (spec 4.9): "Create a passkey" on this device (pages/assets/passkeys.js),
 * or Cancel (a form). `phoneUrl`: "Add a phone instead", a form (CSRF only) that turns the page into a QR.
 */
export interface EnrollPasskeyView extends Csrf {
  appName: string;
  email?: string;
  optionsUrl: string;
  verifyUrl: string;
  cancelAction: string;
  phoneUrl?: string;
}

export interface LinkInvalidView {
  restartUrl?: string;
}

export const CONSENT_SCOPES = ['email', 'phone', 'svc_network_info'] as const;
export type ConsentScope = (typeof CONSENT_SCOPES)[number];

export { approvalIcons as APPROVAL_ICONS, type ApprovalIcon } from '../authorize/types';
import type { ApprovalIcon } from '../authorize/types';

export interface ConsentView extends Csrf {
  appName: string;
  /** One form, two submit buttons: `decision=approve` or `decision=deny`. */
  action: string;
  /** The account being signed in, if known. */
  email?: string;
  scopes: ConsentScope[];
  /**
   * What the title asks: a payment to its payee, an approval ("Approve a change"), or to see the listed
   * scopes ("Allow <app> to see your email address"); absent: "<app> is asking for your approval".
   */
  ask?: { payee: string } | 'approval' | 'scopes';
  /** **Not you?**: the person was recognised by single sign-on; a form (CSRF, `choice=other`) for a fresh sign-in. */
  notYouAction?: string;
  /** svc_custom_message, or a CIBA request's binding_message. */
  customMessage?: string;
  /** customMessage is CIBA's binding_message: shown in large type, to compare with the other screen. */
  bindingMessage?: boolean;
  /** svc_psd2_transaction display_data. */
  psd2?: { payee: string; paymentAmount: string; paymentMethod: string };
  /** svc_approval display_data (at most 2 attributes; icon defaults to Payment). */
  approval?: {
    mainAttribute?: { label: string; value: string };
    attributes: { label: string; value: string; icon?: ApprovalIcon }[];
  };
}

/** **Back to <app>**: the app's redirect_uri with an OAuth error, state and iss (an absolute http(s) URL). */
export interface ErrorBack {
  appName: string;
  url: string;
}

export interface ErrorView {
  /** Catalog keys, e.g. `error.linkExpired.title`; unknown keys fall back to the generic texts. */
  title: string;
  message: string;
  /** A catalog key: a line under the message saying which part of the request is wrong (the logout errors). */
  detail?: string;
  restartUrl?: string;
  back?: ErrorBack;
}

export interface DoneView {
  /** Catalog keys; default "All done" / "You can close this tab." */
  title?: string;
  message?: string;
}

/** A registration link's first page (send-activation): who invites, the custom message, and Continue (a POST). */
export interface RegisterStartView extends Csrf {
  appName: string;
  email: string;
  customMessage?: string;
  action: string;
}

/** Registration, email verified by the link: "Create a passkey", or "Not now" (email codes from then on). */
export interface RegisterPasskeyView extends Csrf {
  appName: string;
  email: string;
  customMessage?: string;
  optionsUrl: string;
  verifyUrl: string;
  /** Not now (email codes from then on); left out on the phone of a desktop-to-mobile registration. */
  notNowAction?: string;
  /** **Use my phone**: a form (CSRF only) that shows the QR to create the passkey on a phone. */
  mobileAction?: string;
}

/**
 * The end of a registration: the invitation's completion text and link, and the way back to the app
 * (its registration redirect URI). The two URLs are the RP's (checked by mgmt against the app), so they are
 * absolute: the renderer prints only http(s) or private-use-scheme URLs and drops anything else.
 */
export interface RegisterCompleteView {
  appName: string;
  completionText?: string;
  link?: { url: string; label: string };
  backUrl?: string;
  /** secondaryCompletionMessage: shown on the phone of a desktop-to-mobile registration only. */
  secondaryMessage?: string;
  /** The phone of a desktop-to-mobile registration: it says the computer goes on (and gets no backUrl). */
  onPhone?: boolean;
}

export type RegisterInvalidView = Record<string, never>;

/** RP-Initiated Logout's confirmation (no or a stale id_token_hint): Sign out or Cancel, one POST. */
export interface LogoutConfirmView extends Csrf {
  /** The app that asked, when it is known (client_id or the hint's aud). */
  appName?: string;
  action: string;
}
export type { NumberMatchView } from './number-match-context';
/**
 * The root URL of a development setup (`npm start`): where to go from here. `consoleUrl` is the console on
 * mgmt's URL (absolute, http(s) only); the discovery document and the development outbox are auth's paths.
 */
export interface WelcomeView {
  consoleUrl: string;
  discoveryUrl: string;
  outboxUrl?: string;
}

export interface PageViews {
  identify: IdentifyView;
  'passkey-offer': PasskeyOfferView;
  'select-account': SelectAccountView;
  'email-code': EmailCodeView;
  'magic-link-sent': MagicLinkSentView;
  'magic-link-confirm': MagicLinkConfirmView;
  'magic-link-done': MagicLinkDoneView;
  'link-invalid': LinkInvalidView;
  consent: ConsentView;
  error: ErrorView;
  done: DoneView;
  'ciba-start': CibaStartView;
  phone: PhoneView;
  'phone-code': PhoneCodeView;
  'enroll-passkey': EnrollPasskeyView;
  'mobile-qr': MobileQrView;
  'qr-expired': QrExpiredView;
  'mobile-done': MobileDoneView;
  'register-start': RegisterStartView;
  'register-passkey': RegisterPasskeyView;
  'register-complete': RegisterCompleteView;
  'register-invalid': RegisterInvalidView;
  'logout-confirm': LogoutConfirmView;
  'number-match': NumberMatchView;
  welcome: WelcomeView;
}

export type PageName = keyof PageViews;
export const PAGE_NAMES = [
  'identify',
  'passkey-offer',
  'select-account',
  'email-code',
  'magic-link-sent',
  'magic-link-confirm',
  'magic-link-done',
  'link-invalid',
  'consent',
  'error',
  'done',
  'ciba-start',
  'phone',
  'phone-code',
  'enroll-passkey',
  'mobile-qr',
  'mobile-done',
  'register-start',
  'register-passkey',
  'register-complete',
  'register-invalid',
  'logout-confirm',
  'number-match',
  'welcome',
  'qr-expired',
] as const satisfies readonly PageName[];
