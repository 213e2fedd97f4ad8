import type { FlowEventFacts } from '@sesame/flow-events';
import type { ActivityLogQuery, ActivityRecord, FlowState } from '../domain/activity-record';
import { flowKey, foldFlow, groupByFlow } from '../domain/fold';
import type { ActivityLogRepository } from './activity-logs.repository';
import { purgeExpiredEntries } from './purge-map';

/** In-memory records for the embedded default and unit tests; copies in and out, like a real store. */
export class MemoryActivityLogRepository implements ActivityLogRepository {
  private readonly flows = new Map<string, FlowState>();

  /** `retentionMs`: how long a record is kept after its flow started (SESAME_ACTIVITY_RETENTION_DAYS). */
  constructor(private readonly retentionMs = Number.POSITIVE_INFINITY) {}

  /** Deletes the records whose retention ran out, as Mongo's TTL index (or its purge) does; returns how many. */
  async purgeExpired(now: number): Promise<number> {
    return purgeExpiredEntries(this.flows, (state) => state.record.timestamp, this.retentionMs, now);
  }

  async applyFlowEvents(events: FlowEventFacts[]): Promise<void> {
    for (const [key, group] of groupByFlow(events)) {
      const next = foldFlow(this.flows.get(key), group);
      // foldFlow's state shares nothing with the events (entries and object facts are copies) and is never
      // changed after it is stored (the next fold copies it): no deep copy per write. Reads still copy.
      if (next) this.flows.set(key, next);
    }
  }

  async query(q: ActivityLogQuery): Promise<ActivityRecord[]> {
    const matches = [...this.flows.values()]
      .map((s) => s.record)
      .filter(
        (r) =>
          r.tenantId === q.tenantId &&
          r.appId === q.appId &&
          r.timestamp >= q.timeStart &&
          r.timestamp < q.timeEnd &&
          (q.userId === undefined || r.userId === q.userId) &&
          (q.userAlias === undefined || r.userAlias === q.userAlias),
      )
      .sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return structuredClone(matches.slice(q.skip, q.skip + q.pageSize));
  }

  /** The flow's state as stored (tests). */
  stateOf(tenantId: string, flowId: string): FlowState | undefined {
    const s = this.flows.get(flowKey(tenantId, flowId));
    return s && structuredClone(s);
  }
}
