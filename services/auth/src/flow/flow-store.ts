import type { KeyValueStore } from '@sesame/kv';
import type { Flow } from './flow';
import { signalChange, watchChanges } from './flow-changes';

const flowKey = (id: string) => `flow:${id}`;

/** Flows in the KV store under their id (a random UUID: not a secret, the session binding guards them). */
export class FlowStore {
  constructor(private readonly kv: KeyValueStore) {}

  async create<R>(flow: Flow<R>): Promise<void> {
    const ttlMs = flow.expiresAt - flow.createdAt;
    await this.kv.set(flowKey(flow.id), JSON.stringify(flow), { ttlMs, onlyIfAbsent: true });
  }

  async get<R>(id: string): Promise<Flow<R> | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const raw = await this.kv.get(flowKey(id));
    return raw ? (JSON.parse(raw) as Flow<R>) : undefined;
  }

  /** Saves a changed flow, keeping its expiry; false when it expired meanwhile. */
  async save<R>(flow: Flow<R>): Promise<boolean> {
    const saved = await this.kv.replace(flowKey(flow.id), JSON.stringify(flow));
    if (saved) await signalChange(this.kv, flowKey(flow.id));
    return saved;
  }

  async delete(id: string): Promise<void> {
    await this.kv.del(flowKey(id));
    await signalChange(this.kv, flowKey(id));
  }

  /** Calls `listener` whenever this flow changes or ends (on any pod); the result stops listening. */
  watch(id: string, listener: () => void): Promise<() => void> {
    return watchChanges(this.kv, flowKey(id), listener);
  }
}
