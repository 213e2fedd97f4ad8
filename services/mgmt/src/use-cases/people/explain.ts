import { type FlowAction, errorCodes, flowActions } from '@sesame/flow-events';
import { type ConsoleLocale, ct } from '../../i18n';
import type { FlowRecord } from '../../support/port';

/**
 * THE table from every action and errorCode of spec 2.4 to the catalog key of its sentence (the sentences are
 * in i18n/i18n-explain.ts, in every console language). explain.test.ts fails when the spec's vocabulary
 * (@sesame/flow-events) has a value without a sentence here.
 */
export const ACTION_SENTENCES: Readonly<Record<FlowAction, string>> = Object.fromEntries(
  flowActions.map((a) => [a, `action.${a}`]),
) as Record<FlowAction, string>;
export const ERROR_CODE_SENTENCES: Readonly<Record<(typeof errorCodes)[number], string>> = Object.fromEntries(
  errorCodes.map((c) => [c, `errorCode.${c}`]),
) as Record<(typeof errorCodes)[number], string>;

type FlowEvent = FlowRecord['events'][number];

/** The action of an event: spec 2.4's `action` (the sample's `action2` too). */
export function actionOf(event: FlowEvent): string {
  const details = event.payload?.details ?? {};
  const action = details.action ?? details.action2;
  return typeof action === 'string' ? action : '';
}

/** The client IP an event reports (`clientIp`, or the sample's `client_ip`). */
export function clientIpOf(event: FlowEvent): string {
  const details = event.payload?.details ?? {};
  const ip = details.clientIp ?? details.client_ip;
  return typeof ip === 'string' ? ip : '';
}

/** One action in words, in `locale` (an action outside the spec says which it was). */
export function explainAction(locale: ConsoleLocale, action: string): string {
  return Object.hasOwn(ACTION_SENTENCES, action)
    ? ct(locale, ACTION_SENTENCES[action as FlowAction])
    : ct(locale, 'action.unknown', { action: action || '?' });
}

/** An errorCode in words; undefined for a value outside the spec. */
export function explainErrorCode(locale: ConsoleLocale, code: string | undefined): string | undefined {
  return code && Object.hasOwn(ERROR_CODE_SENTENCES, code)
    ? ct(locale, ERROR_CODE_SENTENCES[code as keyof typeof ERROR_CODE_SENTENCES])
    : undefined;
}

/** Which step a flow nobody finished stopped at, from its last event. */
const STEP_OF: Partial<Record<FlowAction, string>> = {
  auth_start_oidc: 'start',
  auth_start_native: 'start',
  desktop_login_page: 'email',
  email_verification_failure: 'code',
  email_verification_success: 'passkey',
  new_user_registered: 'passkey',
  magic_link_expired: 'email',
  new_qr_generated: 'qr',
  user_scan_qr: 'qr',
  auth_start_ama: 'qr',
  desktop_transaction_page: 'consent',
  user_send_sms: 'sms',
  sms_verification_failure: 'sms',
  device_auth: 'passkey',
};

const COUNTRY = /\(([A-Z]{2})\)/;

function countryOf(record: FlowRecord): string {
  const fromReason = COUNTRY.exec(record.failureReason ?? '')?.[1];
  if (fromReason) return fromReason;
  const location = record.accessingDeviceLocation as { country?: unknown } | undefined;
  return typeof location?.country === 'string' ? location.country : '?';
}

const has = (record: FlowRecord, action: FlowAction) => record.events.some((e) => actionOf(e) === action);

/**
 * A flow's outcome in plain words: "Signed in with a passkey", "Wrong code entered 5 times; the code was
 * invalidated", "Blocked: sign-in from a blocked country (RU)", "Abandoned at the email step".
 */
export function explainOutcome(locale: ConsoleLocale, record: FlowRecord): string {
  const t = (key: string, vars: Record<string, unknown> = {}) => ct(locale, key, vars);
  const wrongCodes = record.events.filter((e) => actionOf(e) === 'email_verification_failure').length;
  const reason = () =>
    (record.failureReason && record.failureReason !== 'N/A' ? record.failureReason : undefined) ??
    explainErrorCode(locale, record.errorCode) ??
    t('errorCode.auth_failure');
  switch (record.status) {
    case 'success': {
      const method = record.authMethodType;
      return method && ['fido2', 'email_otp', 'email_magic_link', 'device_only'].includes(method)
        ? t('outcome.successWith', { method: t(`method.${method}`) })
        : t('outcome.success');
    }
    case 'enrollment':
      return t('outcome.enrolled');
    case 'blocked':
      if (has(record, 'restricted_location'))
        return t('outcome.blockedCountry', { country: countryOf(record) });
      if (has(record, 'device_blocked_rejection')) return t('outcome.blockedDevice');
      if (has(record, 'account_disabled_rejection')) return t('outcome.blockedDisabled');
      return t('outcome.blocked');
    case 'suspected':
      return t('outcome.suspected', { reason: reason() });
    case 'failure':
      if (record.errorCode === 'Consent_screen_rejected') return t('outcome.rejected');
      if (wrongCodes > 0 && /code/i.test(record.failureReason ?? 'code')) {
        return wrongCodes === 1 ? t('outcome.wrongCode') : t('outcome.wrongCodes', { count: wrongCodes });
      }
      return t('outcome.failed', { reason: reason() });
    default: {
      const lastEvent = record.events.at(-1);
      const last = lastEvent ? actionOf(lastEvent) : 'auth_start_oidc';
      // An address typed, then nothing (issue 38): the person left at the code page.
      const step = lastEvent && typedAnAddress(lastEvent) ? 'code' : (STEP_OF[last as FlowAction] ?? 'start');
      return t('outcome.abandoned', { step: t(`step.${step}`) });
    }
  }
}

/** The event auth records when an address is typed (desktop_login_page, details page email_code). */
const typedAnAddress = (e: FlowEvent) =>
  actionOf(e) === 'desktop_login_page' && e.payload?.details?.page === 'email_code';

/** A flow's events oldest first, each explained in words. */
export function explainTimeline(locale: ConsoleLocale, record: FlowRecord) {
  return [...record.events]
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((e) => ({
      id: e.id,
      timestamp: e.timestamp,
      action: actionOf(e),
      clientIp: clientIpOf(e),
      sentence: typedAnAddress(e) ? ct(locale, 'action.addressTyped') : explainAction(locale, actionOf(e)),
    }));
}
