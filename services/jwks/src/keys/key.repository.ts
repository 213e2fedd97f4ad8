import type { KeyUse, StoredKey } from './key';

/**
 * Storage of key pairs. Keys belong to the environment (one issuer, one /jwks for every tenant), so unlike
 * the directory's repositories no method takes a tenant id.
 *
 * Every state change is a guarded compare-and-set on stored state, so several jwks pods running the same
 * schedule agree instead of fighting: the first pod's write wins, the others' are no-ops and they reload.
 */
export interface KeyRepository {
  /** Adds a key; false (and nothing stored) when a key of this use already has this generation. */
  insert(key: StoredKey): Promise<boolean>;
  /** Every stored key, oldest generation first. */
  list(): Promise<StoredKey[]>;
  /** pending → active; false when the key is not (or no longer) pending. */
  activate(kid: string, activatedAt: number): Promise<boolean>;
  /** active → retired, published until retireAfter; false when the key is not active. */
  retire(kid: string, retiredAt: number, retireAfter: number): Promise<boolean>;
  /** Deletes retired keys whose retireAfter has passed; returns how many. */
  deleteExpired(now: number): Promise<number>;
}

const byGeneration = (a: StoredKey, b: StoredKey) =>
  a.use.localeCompare(b.use) || a.generation - b.generation;

/** In-memory adapter (one process, the embedded default); copies on the way in and out like a database. */
export class MemoryKeyRepository implements KeyRepository {
  private readonly keys = new Map<string, StoredKey>();

  async insert(key: StoredKey): Promise<boolean> {
    const taken = [...this.keys.values()].some(
      (k) => k.kid === key.kid || (k.use === key.use && k.generation === key.generation),
    );
    if (taken) return false;
    this.keys.set(key.kid, structuredClone(key));
    return true;
  }

  async list(): Promise<StoredKey[]> {
    return [...this.keys.values()].map((k) => structuredClone(k)).sort(byGeneration);
  }

  async activate(kid: string, activatedAt: number): Promise<boolean> {
    return this.transition(kid, 'pending', { status: 'active', activatedAt });
  }

  async retire(kid: string, retiredAt: number, retireAfter: number): Promise<boolean> {
    return this.transition(kid, 'active', { status: 'retired', retiredAt, retireAfter });
  }

  async deleteExpired(now: number): Promise<number> {
    let deleted = 0;
    for (const [kid, key] of this.keys) {
      if (key.status === 'retired' && key.retireAfter !== undefined && key.retireAfter <= now) {
        this.keys.delete(kid);
        deleted++;
      }
    }
    return deleted;
  }

  private transition(kid: string, from: StoredKey['status'], change: Partial<StoredKey>): boolean {
    const key = this.keys.get(kid);
    if (!key || key.status !== from) return false;
    this.keys.set(kid, { ...key, ...change });
    return true;
  }
}

export const nextGeneration = (keys: StoredKey[], use: KeyUse): number =>
  Math.max(0, ...keys.filter((k) => k.use === use).map((k) => k.generation)) + 1;
