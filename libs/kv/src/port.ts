/**
 * Short-lived state with TTLs. Keys are relative to the store's namespace (`sesame:<owner>:`); callers add
 * `<kind>:<id>`. Secrets are never keys: callers pass a hash of the secret.
 */
export interface KeyValueStore {
  /**
   * True when keys written in time order are much cheaper than random ones (the embedded engine's B-tree:
   * a random key dirties a page of its own per write, keys that sort by time append to the same page).
   * Callers that mint many keys (access tokens) may then put a time prefix in them. Redis and memory: absent.
   */
  readonly prefersTimeOrderedKeys?: boolean;
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip (Redis MGET): the values in the keys' order, null for a missing key. */
  getMany(keys: string[]): Promise<(string | null)[]>;
  /** Sets with a TTL. With `onlyIfAbsent`, returns false and changes nothing when the key exists. */
  set(key: string, value: string, opts: { ttlMs: number; onlyIfAbsent?: boolean }): Promise<boolean>;
  /** Overwrites an existing key keeping its remaining TTL; false when the key does not exist (or expired). */
  replace(key: string, value: string): Promise<boolean>;
  /** Atomically reads and deletes: the primitive behind single-use codes. */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  /** Increments a counter; the TTL is set when the counter is created. */
  incr(key: string, ttlMs: number): Promise<number>;
  /** Decrements a live counter (returning the new count); a missing or expired one stays missing (0). */
  decr(key: string): Promise<number>;
  /**
   * Sliding-window admission over several windows at once (the send limits): drops each window's entries
   * older than `windowMs`, and when every window holds fewer than its `limit` entries records one entry in
   * each and answers admitted; otherwise records nothing and names the first full window with the time until
   * its oldest entry leaves it. Atomic: of N parallel calls exactly the free places are admitted.
   */
  admit(windows: readonly SlidingWindow[], nowMs: number): Promise<Admission>;
  /**
   * Reads only: how many ms from `nowMs` until `admit` of the same windows would admit (0: it would now), i.e.
   * the longest time until a full window's oldest counted entry leaves it. Records and removes nothing.
   */
  admissionWaitMs(windows: readonly SlidingWindow[], nowMs: number): Promise<number>;
  /**
   * A durable schedule under `key` (a Redis sorted set): puts `member` at time `atMs` (moving it when it is
   * there already). It lives until every member is unscheduled, or `ttlMs` after the last change.
   */
  schedule(key: string, member: string, atMs: number, ttlMs: number): Promise<void>;
  unschedule(key: string, member: string): Promise<void>;
  /** The members whose time is at or before `untilMs`, earliest first, at most `limit`. */
  due(key: string, untilMs: number, limit: number): Promise<string[]>;
  /**
   * Sets `key` to `value` for `ttlMs` as a pending entry of `pool` (a sign-in nobody has acted on yet): it counts
   * in its group and in the whole pool until it expires, is confirmed, or is evicted. When the group or the pool
   * already holds its maximum, the oldest pending entries (the first to expire; a pool's entries share one
   * TTL) are deleted to make room, and their keys answered. Only pending entries are counted or evicted: a
   * confirmed entry never is. A pending key deleted otherwise (del, take) counts until its TTL ends.
   */
  addPending(key: string, value: string, ttlMs: number, pool: PendingPool): Promise<string[]>;
  /**
   * Takes a pending entry out of its pool for good, giving it `value` and `ttlMs` (as set does): false, and
   * nothing written, when `key` is not pending there any more (evicted, expired, deleted). Atomic against
   * addPending: an entry is either confirmed or evicted, never both.
   */
  confirmPending(key: string, value: string, ttlMs: number, pool: PendingGroup): Promise<boolean>;
  /** Remaining lifetime in ms, or null when the key does not exist. */
  ttlMs(key: string): Promise<number | null>;
  /**
   * Wakes whoever listens on `channel` in any process sharing the store (Redis PUBLISH; channels share the
   * keys' namespace). Best effort: a signal reaches the listeners of that moment at most once and is kept for
   * nobody else, so it may only make work happen sooner; whoever waits for one still looks on their own now
   * and then.
   */
  signal(channel: string): Promise<void>;
  /**
   * Calls `listener` at each signal on `channel` until the returned function is called. Resolves once it
   * listens: a signal sent after that reaches it (barring a lost connection).
   */
  listen(channel: string, listener: () => void): Promise<() => void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** One sliding window: at most `limit` admissions in any `windowMs`. */
export interface SlidingWindow {
  key: string;
  limit: number;
  windowMs: number;
}

/** What admit answered: `blocked` is the index of the first full window. */
export type Admission = { admitted: true } | { admitted: false; blocked: number; retryAfterMs: number };

/** Where a pending entry counts: a pool (one kind of entry) and a group in it (a tenant). */
export interface PendingGroup {
  pool: string;
  group: string;
}

/** A pending entry's pool and group, and how many pending entries each may hold (each ≥ 1). */
export interface PendingPool extends PendingGroup {
  groupMax: number;
  poolMax: number;
}
