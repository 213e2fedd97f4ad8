import type { FlowEventFacts } from '@sesame/flow-events';
import type { ActivityLogQuery, ActivityRecord } from '../domain/activity-record';
import type { EraseTarget, FlowListFilter, FlowListQuery } from '../domain/flow-query';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@sesame/oauth';

/** Activity log records, one per (tenant, flow). Every method is scoped by the tenant ids it is given. */
export interface ActivityLogRepository {
  /**
   * Folds a batch of flow events (any tenants, any flows) into their records, idempotently: applying the
   * same events again, in any order or split, leaves every record as it was. Resolves once written.
   */
  applyFlowEvents(events: FlowEventFacts[]): Promise<void>;
  /** Records of one tenant and app started in [timeStart, timeEnd), newest first, skip then pageSize. */
  query(query: ActivityLogQuery): Promise<ActivityRecord[]>;
  /** Support: a tenant's records matching the filter, newest first by (timestamp, id), after `after`. */
  listFlows(query: FlowListQuery): Promise<ActivityRecord[]>;
  /** Support: one record of the tenant; undefined for another tenant's flow as for an unknown one. */
  getFlow(tenantId: string, flowId: string): Promise<ActivityRecord | undefined>;
  /**
   * Support: every record of the tenant matching the filter whose flow started before `snapshotAt`, newest
   * first, in batches of at most `batchSize`; each record once, however many arrive or change meanwhile.
   * The next batch is read only when the consumer asks for it.
   */
  exportFlows(query: ExportQuery): AsyncIterable<ActivityRecord[]>;
  /** Support: how many of the tenant's records match the filter. */
  countFlows(tenantId: string, filter: FlowListFilter): Promise<number>;
  /**
   * Deletes the tenant's records whose userId is the target's, or whose attemptedEmail is (a person erased
   * with their attempts, or the attempts of an address); returns how many. An empty target deletes nothing.
   */
  eraseFlows(tenantId: string, target: EraseTarget): Promise<number>;
  /**
   * Support: the distinct addresses typed in the tenant's flows starting with `prefix` (lower case), in address
   * order, at most `limit`. Each is one seek on the (tenant, address) index, never a scan of the matches.
   */
  attemptedEmails(tenantId: string, prefix: string, limit: number): Promise<string[]>;
}

/** The exclusive upper bound of the strings starting with `prefix` (its last code unit plus one). */
export const prefixEnd = (prefix: string): string =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

export interface ExportQuery {
  tenantId: string;
  filter: FlowListFilter;
  snapshotAt: number;
  batchSize: number;
}
