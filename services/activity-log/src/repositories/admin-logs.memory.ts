import type { AdminLogEntry, AdminLogPage, AdminLogQuery } from '../domain/activity-record';
import type { AdminLogRepository } from './admin-logs.repository';
import { purgeExpiredEntries } from './purge-map';

export class MemoryAdminLogRepository implements AdminLogRepository {
  private readonly entries = new Map<string, AdminLogEntry>();

  /** `retentionMs`: how long an event is kept (SESAME_ADMIN_RETENTION_DAYS). */
  constructor(private readonly retentionMs = Number.POSITIVE_INFINITY) {}

  /** Deletes the events whose retention ran out, as Mongo's TTL index (or its purge) does; returns how many. */
  async purgeExpired(now: number): Promise<number> {
    return purgeExpiredEntries(this.entries, (entry) => entry.timestamp, this.retentionMs, now);
  }

  async append(events: AdminLogEntry[]): Promise<void> {
    for (const e of events) {
      const key = JSON.stringify([e.tenantId, e.id]);
      if (!this.entries.has(key)) this.entries.set(key, structuredClone(e));
    }
  }

  async query(q: AdminLogQuery): Promise<AdminLogPage> {
    const inWindow = [...this.entries.values()]
      .filter((e) => e.tenantId === q.tenantId && e.timestamp >= q.fromTime && e.timestamp < q.toTime)
      .sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { events: structuredClone(inWindow.slice(q.skip, q.skip + q.take)), total: inWindow.length };
  }
}
