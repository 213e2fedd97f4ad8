import { Counter, sha256, shareMetric } from '@sesame/platform';
import type { KeyValueStore, SlidingWindow } from './port';

/** Who a message is counted against: the number or address it goes to, the client, the tenant, the caller IP. */
export const LIMIT_DIMENSIONS = ['destination', 'client', 'tenant', 'ip'] as const;
export type LimitDimension = (typeof LIMIT_DIMENSIONS)[number];

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
      help: 'Messages Sesame was asked to send, by purpose, outcome (allowed, refused) and the limit that refused (none, destination, client, tenant, ip)',
      labelNames: ['purpose', 'outcome', 'limit'] as const,
      registers: [],
    }),
  );
  return decisions;
}

/**
 * The one limit on messages Sesame sends (SMS and mail): sliding windows in the key-value store (Redis in
 * production, so every pod counts together), per destination, client, tenant and caller IP. A message is
 * reserved in every window at once or in none (KeyValueStore.admit): of N parallel requests exactly the free
 * places are sent, and a refused request takes no place. Keys hold hashes, never a number or an address.
 */
export class SendLimiter {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly purpose: MessagePurpose,
    private readonly settings: SendLimitSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves one message for `who` (the dimensions it names and that have a setting), or says which limit is full. */
  async reserve(who: Partial<Record<LimitDimension, string>>): Promise<SendDecision> {
    const dimensions = LIMIT_DIMENSIONS.filter((d) => who[d] !== undefined && this.settings[d]);
    const windows: SlidingWindow[] = dimensions.map((d) => ({
      key: `send:${this.purpose}:${d}:${sha256(who[d]!)}`,
      limit: this.settings[d]!.limit,
      windowMs: this.settings[d]!.windowMs,
    }));
    const admission = await this.kv.admit(windows, this.now());
    if (admission.admitted) {
      limitDecisions().inc({ purpose: this.purpose, outcome: 'allowed', limit: 'none' });
      return { allowed: true };
    }
    const dimension = dimensions[admission.blocked]!;
    limitDecisions().inc({ purpose: this.purpose, outcome: 'refused', limit: dimension });
    return { allowed: false, dimension, retryAfterS: Math.max(1, Math.ceil(admission.retryAfterMs / 1000)) };
  }
}
