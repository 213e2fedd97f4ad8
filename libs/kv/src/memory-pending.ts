import type { PendingGroup, PendingPool } from './port';

/** A pending key: its group, expiry, and the number of its latest add (queue entries of earlier adds are stale). */
interface Member {
  group: string;
  expiresAt: number;
  seq: number;
}

/**
 * Keys in arrival order, with lazy removal: an entry whose key left (or was added again later) is skipped when
 * it reaches the head. An array and a head index, not a Map: taking from the front of a Map with many deleted
 * entries walks over their holes every time (86 µs an add at 100,000 pending, against 2 µs here).
 */
class ArrivalQueue {
  private keys: string[] = [];
  private seqs: number[] = [];
  private head = 0;

  push(key: string, seq: number): void {
    this.keys.push(key);
    this.seqs.push(seq);
  }

  get empty(): boolean {
    return this.head >= this.keys.length;
  }

  /** The key at the head if its entry is current (else undefined: a stale entry), without taking it. */
  peek(members: Map<string, Member>): string | undefined {
    const key = this.keys[this.head]!;
    return members.get(key)?.seq === this.seqs[this.head] ? key : undefined;
  }

  shift(): void {
    this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
  }
}

/** One pool: its pending keys, their arrival order, and each group's order and count. */
interface Pool {
  members: Map<string, Member>;
  order: ArrivalQueue;
  groups: Map<string, { order: ArrivalQueue; size: number }>;
}

/**
 * The pending entries of the in-memory adapters (KeyValueStore.addPending): which keys count where. A pool's
 * entries share one TTL, so arrival order is expiry order: eviction and pruning take from the front of the
 * pool's or the group's queue, in constant time per key.
 */
export class MemoryPendingPools {
  private readonly pools = new Map<string, Pool>();
  private seq = 0;

  /** Counts `key` in its group and pool, evicting the oldest to stay within the limits: the keys evicted. */
  add(key: string, expiresAt: number, limits: PendingPool, now: number): string[] {
    const pool = this.pool(limits.pool);
    this.remove(pool, key);
    this.prune(pool, now);
    let group = pool.groups.get(limits.group);
    const evicted: string[] = [];
    if (group) {
      // Stale entries of keys the pool evicted or that were confirmed leave the group's queue first.
      while (!group.order.empty && group.order.peek(pool.members) === undefined) group.order.shift();
      while (group.size >= limits.groupMax) {
        const oldest = group.order.peek(pool.members);
        group.order.shift();
        if (oldest !== undefined) evicted.push(this.evict(pool, oldest));
      }
    }
    while (pool.members.size >= limits.poolMax) {
      const oldest = pool.order.peek(pool.members);
      pool.order.shift();
      if (oldest !== undefined) evicted.push(this.evict(pool, oldest));
    }
    group = pool.groups.get(limits.group);
    if (!group) {
      group = { order: new ArrivalQueue(), size: 0 };
      pool.groups.set(limits.group, group);
    }
    const seq = ++this.seq;
    pool.members.set(key, { group: limits.group, expiresAt, seq });
    pool.order.push(key, seq);
    group.order.push(key, seq);
    group.size++;
    return evicted;
  }

  /** Takes `key` out of its pool: true when it was pending there and had not expired. */
  confirm(key: string, where: PendingGroup, now: number): boolean {
    const pool = this.pools.get(where.pool);
    const member = pool?.members.get(key);
    if (!pool || !member) return false;
    this.remove(pool, key);
    return member.group === where.group && member.expiresAt > now;
  }

  clear(): void {
    this.pools.clear();
  }

  private pool(name: string): Pool {
    let pool = this.pools.get(name);
    if (!pool) {
      pool = { members: new Map(), order: new ArrivalQueue(), groups: new Map() };
      this.pools.set(name, pool);
    }
    return pool;
  }

  /** Drops the expired keys (and stale entries) from the front of the pool's queue. */
  private prune(pool: Pool, now: number): void {
    while (!pool.order.empty) {
      const key = pool.order.peek(pool.members);
      if (key !== undefined && pool.members.get(key)!.expiresAt > now) return;
      pool.order.shift();
      if (key !== undefined) this.remove(pool, key);
    }
  }

  private evict(pool: Pool, key: string): string {
    this.remove(pool, key);
    return key;
  }

  /** The key leaves the pool; its queue entries turn stale and are skipped later. */
  private remove(pool: Pool, key: string): void {
    const member = pool.members.get(key);
    if (!member) return;
    pool.members.delete(key);
    const group = pool.groups.get(member.group)!;
    group.size--;
    if (group.size === 0) pool.groups.delete(member.group);
  }
}
