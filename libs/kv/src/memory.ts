import { LocalSignals } from './local-signals';
import { EntryTable } from './memory-entries';
import { MemoryPendingPools } from './memory-pending';
import type { Admission, KeyValueStore, PendingGroup, PendingPool, SlidingWindow } from './port';

/** Where a window's live times start in `times` (ascending): the first one later than `since`. */
function firstLive(times: readonly number[], since: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (times[mid]! > since) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** In-memory adapter for the embedded one-machine default and fast unit tests. */
export class MemoryKeyValueStore implements KeyValueStore {
  /** Values and expiries, compactly (see memory-entries.ts): the embedded default keeps every token here. */
  private readonly entries = new EntryTable();
  private readonly signals = new LocalSignals();
  /**
   * Sliding windows: each key's admission times, oldest first (a time earlier than the last is put in order),
   * and when the last one leaves its window. Times that left the window may stay at the front until admit drops
   * them; every read skips them.
   */
  private readonly windows = new Map<string, { times: number[]; expiresAt: number }>();
  /** Schedules: each key's members and their times, and when the schedule expires. */
  private readonly schedules = new Map<string, { members: Map<string, number>; expiresAt: number }>();
  /** Which keys are pending sign-ins, per pool and group (addPending). */
  private readonly pending = new MemoryPendingPools();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = this.now();
    this.entries.sweep(now);
    for (const [key, window] of this.windows) if (window.expiresAt <= now) this.windows.delete(key);
    for (const [key, schedule] of this.schedules) if (schedule.expiresAt <= now) this.schedules.delete(key);
  }

  async get(key: string) {
    return this.entries.value(key, this.now()) ?? null;
  }

  async getMany(keys: string[]) {
    const now = this.now();
    return keys.map((key) => this.entries.value(key, now) ?? null);
  }

  async set(key: string, value: string, opts: { ttlMs: number; onlyIfAbsent?: boolean }) {
    const now = this.now();
    if (opts.onlyIfAbsent && this.entries.value(key, now) !== undefined) return false;
    this.entries.set(key, value, now + opts.ttlMs);
    return true;
  }

  async replace(key: string, value: string) {
    return this.entries.update(key, value, this.now());
  }

  async take(key: string) {
    const value = this.entries.value(key, this.now());
    this.entries.delete(key);
    return value ?? null;
  }

  async del(key: string) {
    this.entries.delete(key);
  }

  async incr(key: string, ttlMs: number) {
    const now = this.now();
    const value = this.entries.value(key, now);
    if (value === undefined) {
      this.entries.set(key, '1', now + ttlMs);
      return 1;
    }
    const next = Number(value) + 1;
    if (!Number.isInteger(next)) throw new Error('value is not an integer');
    this.entries.update(key, String(next), now);
    return next;
  }

  async decr(key: string) {
    const now = this.now();
    const value = this.entries.value(key, now);
    if (value === undefined) return 0;
    const next = Number(value) - 1;
    if (!Number.isInteger(next)) throw new Error('value is not an integer');
    this.entries.update(key, String(next), now);
    return next;
  }

  async admit(windows: readonly SlidingWindow[], nowMs: number): Promise<Admission> {
    // Synchronous from the first read to the last write: parallel calls cannot interleave (as one Lua script).
    const live = windows.map((w) => {
      const times = this.windows.get(w.key)?.times ?? [];
      return { times, from: firstLive(times, nowMs - w.windowMs) };
    });
    const blocked = windows.findIndex((w, i) => live[i]!.times.length - live[i]!.from >= w.limit);
    if (blocked >= 0) {
      const w = windows[blocked]!;
      const { times } = live[blocked]!;
      const oldest = times[times.length - w.limit] ?? nowMs;
      return { admitted: false, blocked, retryAfterMs: Math.max(1, oldest + w.windowMs - nowMs) };
    }
    const recorded = new Set<string>();
    windows.forEach((w, i) => {
      if (recorded.has(w.key)) return;
      recorded.add(w.key);
      let { times, from } = live[i]!;
      // The times that left the window go once they are half the list, so each is copied at most once more:
      // a window of a large limit (a NAT's allowance) costs a search per call, not a copy of every time.
      if (from > 0 && from * 2 >= times.length) times = times.slice(from);
      if (times.length === 0 || times[times.length - 1]! <= nowMs) times.push(nowMs);
      else times.splice(firstLive(times, nowMs), 0, nowMs);
      this.windows.set(w.key, { times, expiresAt: nowMs + w.windowMs });
    });
    return { admitted: true };
  }

  async admissionWaitMs(windows: readonly SlidingWindow[], nowMs: number): Promise<number> {
    let wait = 0;
    for (const w of windows) {
      const times = this.windows.get(w.key)?.times ?? [];
      const inWindow = times.length - firstLive(times, nowMs - w.windowMs);
      if (inWindow >= w.limit) wait = Math.max(wait, times[times.length - w.limit]! + w.windowMs - nowMs);
    }
    return wait;
  }

  private liveSchedule(key: string) {
    const schedule = this.schedules.get(key);
    if (schedule && schedule.expiresAt <= this.now()) {
      this.schedules.delete(key);
      return undefined;
    }
    return schedule;
  }

  async schedule(key: string, member: string, atMs: number, ttlMs: number) {
    const schedule = this.liveSchedule(key) ?? { members: new Map<string, number>(), expiresAt: 0 };
    schedule.members.set(member, atMs);
    schedule.expiresAt = this.now() + ttlMs;
    this.schedules.set(key, schedule);
  }

  async unschedule(key: string, member: string) {
    const schedule = this.liveSchedule(key);
    schedule?.members.delete(member);
    if (schedule?.members.size === 0) this.schedules.delete(key);
  }

  async due(key: string, untilMs: number, limit: number) {
    const members = [...(this.liveSchedule(key)?.members ?? [])];
    return members
      .filter(([, at]) => at <= untilMs)
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([member]) => member);
  }

  async addPending(key: string, value: string, ttlMs: number, pool: PendingPool) {
    const now = this.now();
    const evicted = this.pending.add(key, now + ttlMs, pool, now);
    for (const gone of evicted) this.entries.delete(gone);
    this.entries.set(key, value, now + ttlMs);
    return evicted;
  }

  async confirmPending(key: string, value: string, ttlMs: number, pool: PendingGroup) {
    const now = this.now();
    if (!this.pending.confirm(key, pool, now) || this.entries.value(key, now) === undefined) return false;
    this.entries.set(key, value, now + ttlMs);
    return true;
  }

  async ttlMs(key: string) {
    const now = this.now();
    const expiresAt = this.entries.expiresAt(key, now);
    return expiresAt === undefined ? null : expiresAt - now;
  }

  async signal(channel: string) {
    this.signals.signal(channel);
  }

  async listen(channel: string, listener: () => void) {
    return this.signals.listen(channel, listener);
  }

  async ping() {}

  async close() {
    clearInterval(this.sweeper);
    this.entries.clear();
    this.windows.clear();
    this.schedules.clear();
    this.pending.clear();
  }
}
