import type { FlowEventFacts } from '@sesame/flow-events';
import type { ActivityLogQuery, ActivityRecord, FlowState } from '../domain/activity-record';
import {
  type EraseTarget,
  type FlowListFilter,
  type FlowListQuery,
  isOlderThan,
  matchesErasure,
  matchesFlowFilter,
  newestFirst,
  snapshotFilter,
} from '../domain/flow-query';
import { flowKey, foldFlow, groupByFlow } from '../domain/fold';
import type { ActivityLogRepository, ExportQuery } from './activity-logs.repository';
import { purgeExpiredEntries } from './purge-map';

/** In-memory records for the embedded default and unit tests; copies in and out, like a real store. */
export class MemoryActivityLogRepository implements ActivityLogRepository {
  private readonly flows = new Map<string, FlowState>();
  /**
   * (tenant, userId) → keys of the flows that named the person: a person's page reads their records, not
   * every record. Only ever added to; a read checks each record still matches (a purge, a later userId).
   */
  private readonly byUser = new Map<string, Set<string>>();
  /** (tenant, attemptedEmail) → keys of the flows the address was typed in; kept as byUser is. */
  private readonly byAddress = new Map<string, Set<string>>();

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
      if (!next) continue;
      this.flows.set(key, next);
      const { tenantId, userId, attemptedEmail } = next.record;
      if (userId !== undefined) addTo(this.byUser, flowKey(tenantId, userId), key);
      if (attemptedEmail !== undefined) addTo(this.byAddress, flowKey(tenantId, attemptedEmail), key);
    }
  }

  /** The stored records the query may match: the address's or the person's when it names one, else every record. */
  private *candidates(q: { tenantId: string; filter: FlowListFilter }): Iterable<ActivityRecord> {
    const { userId, attemptedEmail } = q.filter;
    if (userId === undefined && attemptedEmail === undefined) {
      for (const state of this.flows.values()) yield state.record;
      return;
    }
    const keys =
      attemptedEmail !== undefined
        ? this.byAddress.get(flowKey(q.tenantId, attemptedEmail))
        : this.byUser.get(flowKey(q.tenantId, userId!));
    for (const key of keys ?? []) {
      const state = this.flows.get(key);
      if (state) yield state.record;
      else keys?.delete(key);
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

  /** One pass over the records keeping the newest `limit` (no sort of every match: a tenant may have millions). */
  async listFlows(q: FlowListQuery): Promise<ActivityRecord[]> {
    const top: ActivityRecord[] = [];
    for (const record of this.candidates(q)) {
      if (!matchesFlowFilter(record, q.tenantId, q.filter)) continue;
      if (q.after && !isOlderThan(record, q.after)) continue;
      if (top.length === q.limit && newestFirst(record, top[top.length - 1]!) >= 0) continue;
      let at = top.length;
      while (at > 0 && newestFirst(record, top[at - 1]!) < 0) at--;
      top.splice(at, 0, record);
      if (top.length > q.limit) top.pop();
    }
    return structuredClone(top);
  }

  async getFlow(tenantId: string, flowId: string): Promise<ActivityRecord | undefined> {
    const state = this.flows.get(flowKey(tenantId, flowId));
    return state && structuredClone(state.record);
  }

  /**
   * The snapshot is the sorted list of the matching records as they are at the start (stored states are
   * replaced, never changed, by later folds); batches are copied as they are asked for.
   */
  async *exportFlows(q: ExportQuery): AsyncIterable<ActivityRecord[]> {
    const filter = snapshotFilter(q.filter, q.snapshotAt);
    const snapshot: ActivityRecord[] = [];
    for (const record of this.candidates({ tenantId: q.tenantId, filter })) {
      if (matchesFlowFilter(record, q.tenantId, filter)) snapshot.push(record);
    }
    snapshot.sort(newestFirst);
    for (let from = 0; from < snapshot.length; from += q.batchSize) {
      yield structuredClone(snapshot.slice(from, from + q.batchSize));
    }
  }

  async countFlows(tenantId: string, filter: FlowListFilter): Promise<number> {
    let count = 0;
    for (const record of this.candidates({ tenantId, filter }))
      if (matchesFlowFilter(record, tenantId, filter)) count++;
    return count;
  }

  /** A scan of the address index's keys: this adapter serves tests and small stores. */
  async attemptedEmails(tenantId: string, prefix: string, limit: number): Promise<string[]> {
    const found: string[] = [];
    for (const [key, flows] of this.byAddress) {
      const [tenant, email] = JSON.parse(key) as [string, string];
      if (tenant !== tenantId || !email.startsWith(prefix)) continue;
      // An erased flow leaves its key behind: the address counts while one of its records is stored.
      if ([...flows].some((k) => this.flows.get(k)?.record.attemptedEmail === email)) found.push(email);
    }
    return found.sort().slice(0, limit);
  }

  async eraseFlows(tenantId: string, target: EraseTarget): Promise<number> {
    const keys = new Set<string>();
    const { userId, attemptedEmail } = target;
    if (userId !== undefined) for (const k of this.byUser.get(flowKey(tenantId, userId)) ?? []) keys.add(k);
    if (attemptedEmail !== undefined)
      for (const k of this.byAddress.get(flowKey(tenantId, attemptedEmail)) ?? []) keys.add(k);
    let erased = 0;
    for (const key of keys) {
      const state = this.flows.get(key);
      if (state && matchesErasure(state.record, tenantId, target)) {
        this.flows.delete(key);
        erased++;
      }
    }
    return erased;
  }

  /** The flow's state as stored (tests). */
  stateOf(tenantId: string, flowId: string): FlowState | undefined {
    const s = this.flows.get(flowKey(tenantId, flowId));
    return s && structuredClone(s);
  }
}

function addTo(index: Map<string, Set<string>>, indexKey: string, flow: string): void {
  const keys = index.get(indexKey) ?? new Set<string>();
  keys.add(flow);
  index.set(indexKey, keys);
}
