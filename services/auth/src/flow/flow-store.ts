import type { KeyValueStore } from '@sesame/kv';
import type { EnrollmentFlow, Flow, RegistrationFlow } from './flow';
import { signalChange, watchChanges } from './flow-changes';

/** What every stored flow has: its id (a random UUID) and its lifetime. */
export interface StoredFlow {
  id: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * One journey's flows in the KV store under `<keyspace>:<id>`. The id is a random UUID, not a secret: the
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
    private readonly kv: KeyValueStore,
    private readonly keyspace: string,
    private readonly journey?: F extends { journey: infer J } ? J : never,
  ) {}

  private key(id: string): string {
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

/** Sign-in flows (browser /authorize, CIBA, and a phone's side of desktop to mobile). */
export class FlowStore extends KvFlowStore<Flow> {
  constructor(kv: KeyValueStore) {
    super(kv, 'flow');
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
