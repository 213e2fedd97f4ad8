import { type Locale, translate } from '../i18n';
import type { PageViews } from './views';

// Choices contexts.ts makes for the pages of issue 25's experience fixes: the code page's resend timer and what
// the consent page's title asks.

/** The resend timer: whole seconds and as m:ss for the text (the page script counts it down). */
export function resendWait(seconds: number | undefined) {
  if (!seconds || seconds <= 0) return null;
  const s = Math.ceil(seconds);
  return { seconds: String(s), clock: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` };
}

/**
 * A one-time code page's error and Send a new code (the email code's and the SMS code's): the error text of
 * the page's own catalog prefix, the attempts left, whether the code is dead (`locked`: too many wrong tries or
 * expired; Send a new code then comes first) and the resend timer.
 */
export function codeFieldChoices(
  locale: Locale,
  prefix: 'emailCode' | 'phoneCode',
  v: { error?: string; attemptsLeft?: number; resendWaitSeconds?: number },
) {
  return {
    errorKey: v.error ? `${prefix}.error.${v.error}` : null,
    attemptsKey:
      v.attemptsLeft === undefined
        ? null
        : `emailCode.attemptsLeft.${new Intl.PluralRules(locale).select(v.attemptsLeft) === 'one' ? 'one' : 'other'}`,
    attemptsLeft: v.attemptsLeft ?? null,
    locked: v.error === 'tooManyAttempts' || v.error === 'codeExpired',
    resendWait: resendWait(v.resendWaitSeconds),
  };
}

/** The consent page's title says what is asked: a payment, a change, or which details the app will see. */
export function consentTitle(locale: Locale, v: PageViews['consent']): string {
  const { ask, appName } = v;
  if (ask === 'approval') return translate(locale, 'consent.title.approval');
  if (ask === 'scopes') {
    const only = v.scopes.length === 1 ? v.scopes[0] : undefined;
    return translate(locale, only ? `consent.title.${only}` : 'consent.title.several', { appName });
  }
  if (ask) return translate(locale, 'consent.title.payment', { payee: ask.payee });
  return translate(locale, 'consent.title', { appName });
}
