import type { KeyValueStore } from '@sesame/kv';
import type { FlowDevice } from '../flow/flow';
import type { Locale } from '../i18n';

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

  /** Ends the enrollment: true for the one caller that took it (a second tab finishing it gets false). */
  async take(id: string): Promise<boolean> {
    return (await this.kv.take(key(id))) !== null;
  }
}
