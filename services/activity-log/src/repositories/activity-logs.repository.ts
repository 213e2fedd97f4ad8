import type { FlowEventFacts } from '@sesame/flow-events';
import type { ActivityLogQuery, ActivityRecord } from '../domain/activity-record';

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
}
