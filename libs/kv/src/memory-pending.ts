import type { PendingGroup, PendingPool } from './port';

/** One pool: each pending key's group, oldest first, and each group's keys with their expiry, oldest first. */
interface Pool {
  all: Map<string, string>;
  groups: Map<string, Map<string, number>>;
}

/**
 * The pending entries of the in-memory adapters (KeyValueStore.addPending): which keys count where. Maps keep
 * insertion order, and a pool's entries share one TTL, so the first key of a map is the oldest (the first to
 * expire): eviction and pruning take from the front, in constant time per key.
 */
export class MemoryPendingPools {
  private readonly pools = new Map<string, Pool>();

  /** Counts `key` in its group and pool, evicting the oldest to stay within the limits: the keys evicted. */
  add(key: string, expiresAt: number, limits: PendingPool, now: number): string[] {
    const pool = this.prune(limits.pool, now);
    this.remove(pool, key);
    const evicted: string[] = [];
    const group = pool.groups.get(limits.group);
    while (group && group.size >= limits.groupMax) evicted.push(this.evict(pool, group.keys().next().value!));
    while (pool.all.size >= limits.poolMax) evicted.push(this.evict(pool, pool.all.keys().next().value!));
    pool.all.set(key, limits.group);
    const members = pool.groups.get(limits.group) ?? new Map<string, number>();
    members.set(key, expiresAt);
    pool.groups.set(limits.group, members);
    return evicted;
  }

  /** Takes `key` out of its pool: true when it was pending there and had not expired. */
  confirm(key: string, where: PendingGroup, now: number): boolean {
    const pool = this.pools.get(where.pool);
    if (!pool) return false;
    const expiresAt = pool.groups.get(where.group)?.get(key);
    this.remove(pool, key);
    return expiresAt !== undefined && expiresAt > now;
  }

  clear(): void {
    this.pools.clear();
  }

  /** The pool, without the keys that have expired. */
  private prune(name: string, now: number): Pool {
    let pool = this.pools.get(name);
    if (!pool) {
      pool = { all: new Map(), groups: new Map() };
      this.pools.set(name, pool);
    }
    for (const [key, group] of pool.all) {
      if ((pool.groups.get(group)?.get(key) ?? 0) > now) break;
      this.remove(pool, key);
    }
    return pool;
  }

  private evict(pool: Pool, key: string): string {
    this.remove(pool, key);
    return key;
  }

  private remove(pool: Pool, key: string): void {
    const group = pool.all.get(key);
    if (group === undefined) return;
    pool.all.delete(key);
    const members = pool.groups.get(group);
    members?.delete(key);
    if (members?.size === 0) pool.groups.delete(group);
  }
}
