import type { KeyValueStore, PendingPool } from '@sesame/kv';
import { sha256 } from '@sesame/platform';
import { type EnrollmentFlow, type Flow, PENDING, type PendingPoolName, type RegistrationFlow } from './flow';
import { signalChange, watchChanges } from './flow-changes';
import { decodePendingFlow, encodePendingFlow } from './pending-flow';

/** What every stored flow has: its id (a UUID, of version 7 for a new flow: newFlowId) and its lifetime. */
export interface StoredFlow {
  id: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * One journey's flows in the KV store under `<keyspace>:<id>`. The id is a UUID, not a secret: the
 * session binding (flow/flow-guard.ts) guards a flow. Each journey has its own keyspace, so no step of one
 * journey can ever load another journey's flow. Every change is signalled to the status requests waiting on
 * the flow (flow/flow-status.ts), on whichever pod they wait.
 */
export class KvFlowStore<F extends StoredFlow> {
  /**
   * `journey`: stamped on a stored flow that lacks it when read. The previous version stored enrollments and
   * registrations without `journey` (in these same keyspaces); during a rolling deploy this version still
   * reads them, and the flow-event recorder tells journeys apart by it (signin/flow-events.ts).
   */
  constructor(
    protected readonly kv: KeyValueStore,
    private readonly keyspace: string,
    private readonly journey?: F extends { journey: infer J } ? J : never,
  ) {}

  protected key(id: string): string {
    return `${this.keyspace}:${id}`;
  }

  /** Stores a new flow until it expires; false when one with this id exists. */
  async create(flow: F): Promise<boolean> {
    const ttlMs = flow.expiresAt - flow.createdAt;
    return this.kv.set(this.key(flow.id), JSON.stringify(flow), { ttlMs, onlyIfAbsent: true });
  }

  async get(id: string): Promise<F | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const raw = await this.kv.get(this.key(id));
    if (!raw) return undefined;
    const flow = JSON.parse(raw) as F & { journey?: unknown };
    return this.journey && flow.journey === undefined ? { ...flow, journey: this.journey } : flow;
  }

  /** Saves a changed flow, keeping its expiry; false when it ended or expired meanwhile. */
  async save(flow: F): Promise<boolean> {
    const saved = await this.kv.replace(this.key(flow.id), JSON.stringify(flow));
    if (saved) await signalChange(this.kv, this.key(flow.id));
    return saved;
  }

  async delete(id: string): Promise<void> {
    await this.kv.del(this.key(id));
    await signalChange(this.kv, this.key(id));
  }

  /** Ends the flow: true for the one caller that took it (a second tab finishing it gets false). */
  async take(id: string): Promise<boolean> {
    const taken = (await this.kv.take(this.key(id))) !== null;
    if (taken) await signalChange(this.kv, this.key(id));
    return taken;
  }

  /**
   * Marks a one-time act on the flow (a number pick): true for the one caller that makes it, false for every
   * later one, until the flow expires. Kept beside the flow, not in it, so two requests racing cannot both win.
   */
  async claimOnce(flow: F, act: string, now: number): Promise<boolean> {
    const ttlMs = Math.max(1_000, flow.expiresAt - now);
    return this.kv.set(`${this.key(flow.id)}:${act}`, '1', { ttlMs, onlyIfAbsent: true });
  }

  /** Calls `listener` whenever this flow changes or ends (on any pod); the result stops listening. */
  watch(id: string, listener: () => void): Promise<() => void> {
    return watchChanges(this.kv, this.key(id), listener);
  }
}

/**
 * The limits of pending sign-ins (issue 42): a GET /authorize nobody acted on yet. `ttlMs`: the life of an
 * untouched flow (the flow's own expiresAt still bounds it); `perTenantMax` and `max`: how many pending flows a
 * tenant and everyone together may hold, the oldest evicted first; `perIpMax` (0: no limit): how many starts
 * one caller IP may leave pending in `ipWindowMs`, refused beyond (429).
 */
export interface PendingFlowRules {
  ttlMs: number;
  perTenantMax: number;
  max: number;
  perIpMax: number;
  ipWindowMs: number;
  now?: () => number;
}

/** A pending record over this many bytes counts in the `flow-large` pool, whose caps are this much smaller. */
export const COMPACT_RECORD_BYTES = 1024;
const LARGE_POOL_SHARE = 16;

/** A start refused by the per-IP allowance: the caller may start again after this many seconds. */
export interface StartRefused {
  retryAfterS: number;
}

/** The person identified (typed their address and moved on, or was proven): the flow is theirs, not a flood's. */
const identified = (flow: Flow) =>
  flow.proof !== undefined || (flow.email !== undefined && flow.step !== 'identify');
/**
 * Starts that the per-IP allowance gives back: a mail went out (the mail limits bound those per IP) or a
 * person was proven. Not a bare click (desktop to mobile without an address), which costs a flood nothing.
 */
const givesBackStart = (flow: Flow) =>
  flow.proof !== undefined || flow.step === 'email_code' || flow.step === 'link_sent';

/**
 * Sign-in flows (browser /authorize, CIBA, and a phone's side of desktop to mobile). A browser's GET /authorize
 * starts a pending flow (createPending): a compact record (pending-flow.ts) with a short life, counted per
 * tenant and in total with the oldest pending evicted first when full (KeyValueStore.addPending), so a flood
 * of starts holds bounded memory. Once the person identifies, save gives the flow its whole life and takes it
 * out of the counts: a flood never evicts it. Until then a save keeps it pending.
 */
export class FlowStore extends KvFlowStore<Flow> {
  private readonly now: () => number;

  constructor(
    kv: KeyValueStore,
    private readonly rules?: PendingFlowRules,
  ) {
    super(kv, 'flow');
    this.now = rules?.now ?? Date.now;
  }

  private ipKey(ip: string): string {
    return `flow-starts:${sha256(ip)}`;
  }

  /**
   * The per-IP allowance of pending starts: takes a place for a start from `ip`, or answers when to retry
   * (taking none) when the caller's window is full. A fixed window, as the failed-authentication throttle's
   * (@sesame/kv AuthFailureThrottle); a start whose person identifies by mail or is proven gives its place back.
   */
  async admitStart(ip: string): Promise<StartRefused | undefined> {
    if (!this.rules?.perIpMax) return undefined;
    const key = this.ipKey(ip);
    const count = await this.kv.incr(key, this.rules.ipWindowMs);
    if (count <= this.rules.perIpMax) return undefined;
    const [, remaining] = await Promise.all([this.kv.decr(key), this.kv.ttlMs(key)]);
    return { retryAfterS: Math.max(1, Math.ceil((remaining ?? this.rules.ipWindowMs) / 1000)) };
  }

  private limits(pool: PendingPoolName, tenantId: string): PendingPool {
    const rules = this.rules!;
    const share = pool === 'flow' ? 1 : LARGE_POOL_SHARE;
    return {
      pool,
      group: tenantId,
      groupMax: Math.max(1, Math.ceil(rules.perTenantMax / share)),
      poolMax: Math.max(1, Math.ceil(rules.max / share)),
    };
  }

  /**
   * Stores a browser's new flow as pending (without rules: as create does), evicting the oldest pending ones
   * when its tenant's or the total cap is reached; marks `flow` pending, so saving it keeps the rules.
   */
  async createPending(flow: Flow): Promise<void> {
    if (!this.rules) {
      await this.create(flow);
      return;
    }
    let pool: PendingPoolName = 'flow';
    let record = encodePendingFlow(flow, pool);
    if (Buffer.byteLength(record) > COMPACT_RECORD_BYTES) {
      pool = 'flow-large';
      record = encodePendingFlow(flow, pool);
    }
    const ttlMs = Math.min(this.rules.ttlMs, flow.expiresAt - flow.createdAt);
    await this.kv.addPending(this.key(flow.id), record, ttlMs, this.limits(pool, flow.tenantId));
    flow[PENDING] = pool;
  }

  override async get(id: string): Promise<Flow | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const raw = await this.kv.get(this.key(id));
    if (!raw) return undefined;
    const pending = decodePendingFlow(id, raw);
    if (!pending) return JSON.parse(raw) as Flow;
    pending.flow[PENDING] = pending.pool;
    return pending.flow;
  }

  /**
   * Saves a changed flow. A pending one whose person identified gets its whole life (until expiresAt) and
   * leaves the pending counts; one that did not stays pending. False when it ended, expired or was evicted.
   */
  override async save(flow: Flow): Promise<boolean> {
    const pool = flow[PENDING];
    if (!pool) return super.save(flow);
    const { [PENDING]: _, ...plain } = flow;
    const key = this.key(flow.id);
    let saved: boolean;
    if (identified(plain)) {
      const lifeMs = Math.max(1_000, plain.expiresAt - this.now());
      saved = await this.kv.confirmPending(key, JSON.stringify(plain), lifeMs, {
        pool,
        group: plain.tenantId,
      });
      if (saved && givesBackStart(plain) && this.rules?.perIpMax)
        await this.kv.decr(this.ipKey(plain.clientIp));
    } else saved = await this.kv.replace(key, encodePendingFlow(plain, pool));
    if (saved) await signalChange(this.kv, key);
    return saved;
  }

  /**
   * Ends a flow that no page will show (prompt none): a pending one leaves the counts at once and gives its
   * per-IP place back, as a completed start does (one that was proven gave it back already, when saved).
   */
  async discard(flow: Flow): Promise<void> {
    const pool = flow[PENDING];
    const left =
      pool !== undefined &&
      (await this.kv.confirmPending(this.key(flow.id), '', 1_000, { pool, group: flow.tenantId }));
    if (left && this.rules?.perIpMax) await this.kv.decr(this.ipKey(flow.clientIp));
    await this.delete(flow.id);
  }
}

/** Device enrollments (interactive init), in their own keyspace. */
export class EnrollmentFlows extends KvFlowStore<EnrollmentFlow> {
  constructor(kv: KeyValueStore) {
    super(kv, 'enroll-flow', 'enrollment');
  }
}

/** Registrations by an emailed link, in their own keyspace. */
export class RegistrationFlows extends KvFlowStore<RegistrationFlow> {
  constructor(kv: KeyValueStore) {
    super(kv, 'registration-flow', 'registration');
  }
}
