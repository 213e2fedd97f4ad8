import { type Locale, translate } from '../i18n';

/**
 * The approving page of a sign-in confirmed on another device than the one that started it (a magic link
 * opened in another browser: `link`; the QR's phone: `phone`): "This sign-in will continue on another
 * device", that device's browser and OS, its approximate place and when the flow started, and one form with
 * three buttons named by their number (`choice`), of which the person picks the one the other screen shows.
 */
export interface NumberMatchView {
  purpose: 'link' | 'phone';
  /** The browser session's CSRF token, posted as `csrf` (as every page's Csrf). */
  csrf: string;
  appName: string;
  email?: string;
  action: string;
  /** Three two-digit numbers, shuffled; the right one is one of them and nothing tells which. */
  choices: string[];
  /** The device that started the flow. */
  other: {
    browser: string;
    os: string;
    /** From its IP address, when known; `country` is an ISO 3166-1 alpha-2 code. */
    city?: string;
    country?: string;
    /** When the flow started, epoch milliseconds. */
    startedAt: number;
  };
}

/** A country's name in the page's language ("DE" → "Germany", "Deutschland", "Allemagne"); the code if unknown. */
function countryName(locale: Locale, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code; // not a well-formed region code
  }
}

/** "Berlin, Germany", "Germany", or the catalog's "Unknown location". */
function placeText(locale: Locale, city: string | undefined, country: string | undefined): string {
  const parts = [city, country && countryName(locale, country)].filter((p): p is string => Boolean(p));
  return parts.length ? parts.join(', ') : translate(locale, 'numberMatch.placeUnknown');
}

/** The start time in the page's language, in UTC (the approving device's zone is not known to the server). */
function timeText(locale: Locale, at: number): string {
  const format = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return `${format.format(new Date(at))} UTC`;
}

/** The number-match page's template context: every text chosen and formatted here, the template only prints. */
export function numberMatchContext(v: NumberMatchView, locale: Locale, action: string) {
  if (v.choices.length !== 3) throw new Error('number-match shows exactly three choices');
  const phone = v.purpose === 'phone';
  return {
    title: translate(locale, phone ? 'numberMatch.phone.title' : 'magicLinkConfirm.title'),
    leadKey: phone ? 'numberMatch.phone.text' : 'magicLinkConfirm.text',
    appName: v.appName,
    email: v.email ?? '',
    action,
    csrf: v.csrf,
    choices: v.choices,
    device: translate(locale, 'numberMatch.deviceValue', { browser: v.other.browser, os: v.other.os }),
    place: placeText(locale, v.other.city, v.other.country),
    startedAt: timeText(locale, v.other.startedAt),
    startedIso: new Date(v.other.startedAt).toISOString(),
  };
}
