import type { ConsoleLocale } from '../../i18n';
import type { FlowRecord } from '../../support/port';
import { explainOutcome, explainTimeline } from './explain';

/** A value a device or flow record really knows: the placeholders for "not known" are nothing. */
const UNKNOWN_VALUE = /^(?:n\/a|unknown)$/i;
const str = (v: unknown) => (typeof v === 'string' && !UNKNOWN_VALUE.test(v.trim()) ? v : '');

/**
 * A device's text without its unknown parts (issue 37): "Chrome 156 on Linux Unknown" is "Chrome 156 on Linux",
 * "Unknown on Linux" is "Linux"; a text of nothing known is empty.
 */
export function knownParts(text: string): string {
  return text
    .replace(/(?:^|\s)(?:unknown|n\/a)(?=[\s,;·]|$)/gi, '')
    .replace(/\s+([,;])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim()
    .replace(/^(?:on\b|[,;·])\s*/i, '')
    .replace(/\s*(?:\bon|[,;·])$/i, '')
    .trim();
}

/** "Chrome 120 on macOS 14", from the record's structured device (else its text). */
export function deviceText(info: unknown, text: unknown): string {
  const d = (info ?? {}) as Record<string, unknown>;
  const browser = [str(d.browserType), str(d.browserVersion)].filter(Boolean).join(' ');
  const os = [str(d.osType), str(d.osVersion)].filter(Boolean).join(' ');
  const named = str(d.detectedName) || str(d.alias);
  const built = browser && os ? `${browser} on ${os}` : browser || os;
  return knownParts([named, built].filter(Boolean).join(' · ') || str(text));
}

/** "Berlin, DE" (city, country) or whichever of them is known. */
export function locationText(location: unknown): string {
  const l = (location ?? {}) as Record<string, unknown>;
  return [str(l.city), str(l.country)].filter(Boolean).join(', ');
}

/** One flow as support reads it: who, when, where from, how, and the outcome in words. */
export interface FlowSummary {
  id: string;
  timestamp: number;
  /** ISO 8601 UTC. */
  time: string;
  applicationId: string;
  userId?: string;
  email?: string;
  /** The address typed in the flow (lower-case), with or without an account. */
  attemptedEmail?: string;
  flowType?: string;
  authMethodType?: string;
  status: string;
  errorCode?: string;
  failureReason?: string;
  device: string;
  ip: string;
  location: string;
  outcome: string;
}

export function summarize(record: FlowRecord, locale: ConsoleLocale = 'en'): FlowSummary {
  return {
    id: record.id,
    timestamp: record.timestamp,
    time: new Date(record.timestamp).toISOString(),
    applicationId: record.applicationId,
    ...(record.userId ? { userId: record.userId } : {}),
    ...(record.email ? { email: record.email } : {}),
    ...(record.attemptedEmail ? { attemptedEmail: record.attemptedEmail } : {}),
    ...(record.flowType ? { flowType: record.flowType } : {}),
    ...(record.authMethodType ? { authMethodType: record.authMethodType } : {}),
    status: record.status ?? 'incomplete',
    ...(record.errorCode ? { errorCode: record.errorCode } : {}),
    ...(str(record.failureReason) ? { failureReason: record.failureReason } : {}),
    device: deviceText(record.accessingDeviceInfo, record.accessingDevice),
    ip: str(record.accessingIp),
    location: locationText(record.accessingDeviceLocation),
    outcome: explainOutcome(locale, record),
  };
}

/** One flow in full: its summary, its events as a timeline in words, and the record itself. */
export function flowDetail(record: FlowRecord, locale: ConsoleLocale = 'en') {
  return {
    flow: summarize(record, locale),
    timeline: explainTimeline(locale, record).map((e) => ({
      ...e,
      time: new Date(e.timestamp).toISOString(),
    })),
    authenticatingDevice: deviceText(record.authenticatingDeviceInfo, record.authenticatingDevice),
    record,
  };
}
