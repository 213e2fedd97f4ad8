import type { KeyValueStore } from '@sesame/kv';
import type { FlowDevice } from '../../flow/flow';
import { signalChange, watchChanges } from '../../flow/flow-changes';
import type { Locale } from '../../i18n';

/**
 * An enrollment (interactive init, purpose device_enrollment) after its link was opened: which user adds a
 * device to which app, the browser it is bound to, and where it ends. Kept apart from sign-in flows (own
 * keyspace and routes) so no sign-in step can ever act on it, and the reverse.
 */
export interface EnrollmentFlow {
  id: string;
  tenantId: string;
  appId: string;
  clientId: string;
  appName: string;
  userId: string;
  /** Hash of the browser session that opened the link: only that browser may drive the enrollment. */
  sessionKey: string;
  request: { redirectUri: string; state?: string };
  locale: Locale;
  createdAt: number;
  expiresAt: number;
  clientIp: string;
  /** The browser that opened the link: the device being enrolled. */
  originatingDevice: FlowDevice;
  /** "Add a phone instead": the QR the desktop shows and what the phone did with it. */
  qr?: EnrollmentQr;
}

/** The phone side of an enrollment. Only the hash of the QR's one-time link is kept (mobile-links.ts). */
export interface EnrollmentQr {
  /** Hash of the link shown now; undefined until the QR page draws one. */
  linkHash?: string;
  /** The link must be opened before this time (epoch ms), else the enrollment ends (unsupported_browser). */
  openBy?: number;
  openedAt?: number;
  /** The phone's browser session and device: only that browser drives the phone's passkey step. */
  phoneSessionKey?: string;
  phoneDevice?: FlowDevice;
  /** The phone stored its passkey: the desktop tab ends at the RP. */
  done?: boolean;
  /** The phone cancelled: the desktop ends with this error. */
  ended?: { error: string; error_description: string };
}

const key = (id: string) => `enroll-flow:${id}`;

export class EnrollmentFlows {
  constructor(private readonly kv: KeyValueStore) {}

  async create(flow: EnrollmentFlow): Promise<void> {
    await this.kv.set(key(flow.id), JSON.stringify(flow), {
      ttlMs: flow.expiresAt - flow.createdAt,
      onlyIfAbsent: true,
    });
  }

  async get(id: string): Promise<EnrollmentFlow | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const raw = await this.kv.get(key(id));
    return raw ? (JSON.parse(raw) as EnrollmentFlow) : undefined;
  }

  /** Overwrites a live enrollment (keeping its TTL); false when it ended or expired meanwhile. */
  async save(flow: EnrollmentFlow): Promise<boolean> {
    const saved = await this.kv.replace(key(flow.id), JSON.stringify(flow));
    if (saved) await signalChange(this.kv, key(flow.id));
    return saved;
  }

  /** Ends the enrollment: true for the one caller that took it (a second tab finishing it gets false). */
  async take(id: string): Promise<boolean> {
    const taken = (await this.kv.take(key(id))) !== null;
    if (taken) await signalChange(this.kv, key(id));
    return taken;
  }

  /** Calls `listener` whenever this enrollment changes or ends (on any pod); the result stops listening. */
  watch(id: string, listener: () => void): Promise<() => void> {
    return watchChanges(this.kv, key(id), listener);
  }
}
