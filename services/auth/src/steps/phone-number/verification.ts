import type { FlowAction, FlowEventInput } from '@sesame/flow-events';
import { type Locale, translate } from '../../i18n';
import type { PhoneCodeView, PhoneView } from '../../pages';
import type { HostedDeps } from '../../web/deps';

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * Verifying a mobile number by an SMS code, whatever flow asks for it (the sign-in's acr
 * ts.svc.iac.phone_number in routes.ts, a registration's verifications in journeys/registration/phone-number.ts):
 * the email code's store and rules (CSPRNG, HMAC at rest, TTL, constant-time, single use, dead after the
 * maximum of wrong tries) under the caller's own code id, sends throttled per number and IP, and the number
 * stored on the user only once the code is right. Each flow keeps its own state and pages' paths.
 */
export interface PhoneVerification {
  /** The code store's id for this flow's phone codes (never one a sign-in's email code uses). */
  codeId: string;
  /** The flow's tenant: a number's sends are counted per tenant too (SendThrottle). */
  tenantId: string;
  locale: Locale;
  appName: string;
  /** Records a step of the flow's activity (user_send_sms, sms_verification_success / _failure). */
  record(action: FlowAction, facts?: Partial<FlowEventInput>): Promise<void>;
}

/** The typed number without spaces, dots, dashes and brackets when it is E.164, else undefined. */
export function phoneNumberOf(typed: string): string | undefined {
  const number = typed.replace(/[\s().-]/g, '');
  return E164.test(number) ? number : undefined;
}

/** Throttles, issues and texts the code for `number`; the answer is what the phone page says otherwise. */
export async function sendPhoneCode(
  deps: HostedDeps,
  v: PhoneVerification,
  number: string,
  ip: string,
): Promise<'sent' | Exclude<PhoneView['error'], 'invalidPhone' | undefined>> {
  if (!(await deps.sendThrottle.reserve(number, ip, { tenant: v.tenantId }))) return 'rateLimited';
  const code = await deps.codes.issue(v.codeId, number);
  const text = translate(v.locale, 'phone.sms.text', {
    code,
    appName: v.appName,
    minutes: deps.codeTtlMinutes,
  });
  try {
    if (!deps.sendSms) throw new Error('no SMS sender configured');
    await deps.sendSms({ to: number, text });
  } catch (err) {
    deps.logger.warn({ err, codeId: v.codeId }, 'the phone verification code could not be sent');
    await v.record('user_send_sms', { status: 'failure', failureReason: 'SMS not delivered' });
    return 'smsFailed';
  }
  await v.record('user_send_sms');
  return 'sent';
}

/** The resend timer: how long the send limits make this person wait for the next code to `number` (0: none). */
export async function phoneResendWaitSeconds(
  deps: HostedDeps,
  v: Pick<PhoneVerification, 'tenantId'>,
  number: string,
  ip: string,
): Promise<number> {
  return Math.ceil((await deps.sendThrottle.waitMs(number, ip, { tenant: v.tenantId })) / 1000);
}

/** What the SMS code page shows after **Send a new code**, and its status. */
export interface PhoneResend {
  status: number;
  view: Pick<PhoneCodeView, 'error' | 'resent' | 'resendWaitSeconds'>;
}

/**
 * **Send a new code** on the SMS code page (as the email code page's): within the wait the send limits set, the
 * page again with the timer (429); else a new code to the same number (the old one is dead from then on).
 */
export async function resendPhoneCode(
  deps: HostedDeps,
  v: PhoneVerification,
  number: string,
  ip: string,
): Promise<PhoneResend> {
  const wait = await phoneResendWaitSeconds(deps, v, number, ip);
  if (wait > 0) return { status: 429, view: { error: 'rateLimited', resendWaitSeconds: wait } };
  const sent = await sendPhoneCode(deps, v, number, ip);
  const resendWaitSeconds = await phoneResendWaitSeconds(deps, v, number, ip);
  if (sent === 'sent') return { status: 200, view: { resent: true, resendWaitSeconds } };
  return { status: sent === 'rateLimited' ? 429 : 503, view: { error: sent, resendWaitSeconds } };
}

export type PhoneCodeCheck =
  | { verified: true }
  | {
      verified: false;
      error: NonNullable<PhoneCodeView['error']>;
      attemptsLeft?: number;
      resendWaitSeconds?: number;
    };

/**
 * Checks the typed code for `number`; a right one records the number on the user as verified
 * (phone_number, phone_number_verified and phone_number_last_update of the ID token).
 */
export async function checkPhoneCode(
  deps: HostedDeps,
  v: PhoneVerification,
  p: { number: string; userId: string; typed: string; ip: string },
): Promise<PhoneCodeCheck> {
  const typed = p.typed.replace(/\s/g, '');
  const check = await deps.codes.check(v.codeId, typed);
  if (check.result === 'ok' && check.email === p.number) {
    await deps.users.users.update(p.userId, { phoneNumber: p.number, phoneVerifiedAt: deps.now() });
    await v.record('sms_verification_success', { clientIp: p.ip });
    return { verified: true };
  }
  const dead = check.result !== 'wrong';
  // A code killed by its wrong tries is "too many attempts" (even for the right code typed after), not expired.
  const locked = dead && (await deps.codes.lockedOut(v.codeId));
  await v.record('sms_verification_failure', {
    failureReason: dead ? 'SMS code expired or tried too often' : 'wrong SMS code',
  });
  if (dead) {
    const resendWaitSeconds = await phoneResendWaitSeconds(deps, v, p.number, p.ip);
    return { verified: false, error: locked ? 'tooManyAttempts' : 'codeExpired', resendWaitSeconds };
  }
  return {
    verified: false,
    error: /^\d{6}$/.test(typed) ? 'wrongCode' : 'invalidFormat',
    attemptsLeft: check.attemptsLeft,
  };
}
