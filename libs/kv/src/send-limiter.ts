import { Counter, sha256, shareMetric } from '@sesame/platform';
import type { KeyValueStore, SlidingWindow } from './port';

/**
 * What a message is counted against. destination, client, tenant, ip: the number or address it goes to, the
 * client, the tenant, the caller IP, each on its own. destination_tenant and destination_ip: the destination
 * per tenant and per caller IP, so one tenant or one caller cannot use up the destination's allowance for the
 * others (`destination` alone is then the higher global ceiling). proven: the destination per tenant for a
 * requester who proved it (a signed-in session of its owner), counted apart from every stranger's window.
 */
export const LIMIT_DIMENSIONS = [
  'destination',
  'client',
  'tenant',
  'ip',
  'destination_tenant',
  'destination_ip',
  'proven',
] as const;
export type LimitDimension = (typeof LIMIT_DIMENSIONS)[number];
/** The values a message is counted by: the composite dimensions are made of these. */
export type LimitSubject = Partial<Record<'destination' | 'client' | 'tenant' | 'ip', string>>;
/** The windows strangers fill: a requester who proved the destination is not held by them. */
const STRANGERS: ReadonlySet<LimitDimension> = new Set([
  'destination',
  'destination_tenant',
  'destination_ip',
  'ip',
]);

/** What kind of message is limited (a fixed set: the metric's label). */
export type MessagePurpose = 'ciba_sms' | 'activation_mail' | 'signin_mail' | 'admin_invitation_mail';

/** At most `limit` messages in any `windowMs`; a dimension without a setting is not limited. */
export interface LimitSetting {
  limit: number;
  windowMs: number;
}
export type SendLimitSettings = Partial<Record<LimitDimension, LimitSetting>>;

export type SendDecision =
  | { allowed: true }
  | { allowed: false; dimension: LimitDimension; retryAfterS: number };

let decisions: Counter<'purpose' | 'outcome' | 'limit'> | undefined;
/** sesame_message_limit_decisions_total{purpose, outcome: allowed|refused, limit: none|<dimension>}: bounded labels. */
export function limitDecisions(): Counter<'purpose' | 'outcome' | 'limit'> {
  decisions ??= shareMetric(
    new Counter({
      name: 'sesame_message_limit_decisions_total',
      help: 'Messages Sesame was asked to send, by purpose, outcome (allowed, refused) and the limit that refused (none, destination, client, tenant, ip, destination_tenant, destination_ip, proven)',
      labelNames: ['purpose', 'outcome', 'limit'] as const,
      registers: [],
    }),
  );
  return decisions;
}

/** The value a dimension's key is made of, or undefined when `who` lacks a part of it. */
function keyValue(d: LimitDimension, who: LimitSubject): string | undefined {
  const pair = (a?: string, b?: string) => (a === undefined || b === undefined ? undefined : `${a}\n${b}`);
  if (d === 'destination_tenant' || d === 'proven') return pair(who.destination, who.tenant);
  if (d === 'destination_ip') return pair(who.destination, who.ip);
  return who[d];
}

/** How a request stands to the destination: `proven` when its requester proved it (see LIMIT_DIMENSIONS). */
export interface ReserveOptions {
  proven?: boolean;
}

/**
 * The one limit on messages Sesame sends (SMS and mail): sliding windows in the key-value store (Redis in
 * production, so every pod counts together), per destination, client, tenant and caller IP, and per
 * destination and tenant or caller IP. A message is reserved in every window at once or in none
 * (KeyValueStore.admit): of N parallel requests exactly the free places are sent, and a refused request takes
 * no place. A proven requester skips the strangers' windows for its own. Keys hold hashes, never a number or an
 * address.
 */
export class SendLimiter {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly purpose: MessagePurpose,
    private readonly settings: SendLimitSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The dimensions that count `who` (those with a setting and a value), and their windows. */
  private windows(who: LimitSubject, opts: ReserveOptions) {
    const dimensions = LIMIT_DIMENSIONS.filter(
      (d) =>
        this.settings[d] &&
        keyValue(d, who) !== undefined &&
        (opts.proven ? !STRANGERS.has(d) : d !== 'proven'),
    );
    const windows: SlidingWindow[] = dimensions.map((d) => ({
      key: `send:${this.purpose}:${d}:${sha256(keyValue(d, who)!)}`,
      limit: this.settings[d]!.limit,
      windowMs: this.settings[d]!.windowMs,
    }));
    return { dimensions, windows };
  }

  /** Reserves one message for `who` (the dimensions it names and that have a setting), or says which limit is full. */
  async reserve(who: LimitSubject, opts: ReserveOptions = {}): Promise<SendDecision> {
    const { dimensions, windows } = this.windows(who, opts);
    const admission = await this.kv.admit(windows, this.now());
    if (admission.admitted) {
      limitDecisions().inc({ purpose: this.purpose, outcome: 'allowed', limit: 'none' });
      return { allowed: true };
    }
    const dimension = dimensions[admission.blocked]!;
    limitDecisions().inc({ purpose: this.purpose, outcome: 'refused', limit: dimension });
    return { allowed: false, dimension, retryAfterS: Math.max(1, Math.ceil(admission.retryAfterMs / 1000)) };
  }

  /** Reads only: ms until `reserve(who, opts)` would be allowed (0: now); a resend timer shows it. */
  waitMs(who: LimitSubject, opts: ReserveOptions = {}): Promise<number> {
    return this.kv.admissionWaitMs(this.windows(who, opts).windows, this.now());
  }
}
