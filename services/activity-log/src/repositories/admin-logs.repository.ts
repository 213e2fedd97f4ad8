import type { AdminLogEntry, AdminLogPage, AdminLogQuery } from '../domain/activity-record';

/** Admin events (spec 2.5), unique by (tenant, id). */
export interface AdminLogRepository {
  /** Stores events not stored before; an event id already stored for its tenant is left untouched. */
  append(events: AdminLogEntry[]): Promise<void>;
  /** Events of one tenant in [fromTime, toTime), newest first, skip then take, plus the window's total. */
  query(query: AdminLogQuery): Promise<AdminLogPage>;
}
