import type { FlowEventFacts } from '@sesame/flow-events';

/** One entry of a record's `events` (spec 2.4): details carry `action`, `clientIp` and the step's other members. */
export interface ActivityEventEntry {
  id: string;
  timestamp: number;
  payload: { flowId: string; details: Record<string, string | number | boolean> };
}

/** Facts that belong to the flow as a whole; each takes the value of the latest event that carries it. */
export const recordFields = [
  'userId',
  'userAlias',
  'email',
  'attemptedEmail',
  'traceId',
  'accessingDevice',
  'accessingDeviceInfo',
  'accessingDeviceLocation',
  'accessingIp',
  'authenticatingDevice',
  'authenticatingDeviceInfo',
  'authMethodType',
  'consentDecision',
  'desktopLoginDecision',
  'desktopTransactionDecision',
  'errorCode',
  'failureReason',
  'flowType',
  'status',
  'isNewAuthenticationDeviceForRP',
] as const;
export type RecordField = (typeof recordFields)[number];
export type RecordFacts = Partial<Pick<FlowEventFacts, RecordField>>;

/** One activity log record per flow (spec 2.4), in the service's own terms. */
export interface ActivityRecord extends RecordFacts {
  /** The flow id. */
  id: string;
  tenantId: string;
  appId: string;
  /** The flow's first event time (epoch ms): a flow is listed, and expires, by when it started. */
  timestamp: number;
  events: ActivityEventEntry[];
}

/**
 * A record plus what makes folding order-independent: for each fact, the order key of the event it came from
 * (`appId` is keyed by the earliest event, every other fact by the latest).
 */
export interface FlowState {
  record: ActivityRecord;
  versions: Partial<Record<RecordField | 'appId', string>>;
}

export interface ActivityLogQuery {
  tenantId: string;
  appId: string;
  /** Inclusive, epoch ms. */
  timeStart: number;
  /** Exclusive, epoch ms. */
  timeEnd: number;
  userId?: string;
  userAlias?: string;
  skip: number;
  pageSize: number;
}

/** An admin event (spec 2.5); timestamp is a number, epoch ms (ARCHITECTURE §7). */
export interface AdminLogEntry {
  id: string;
  activityType: string;
  adminEmail: string;
  clientIp: string;
  sessionId: string;
  tenantId: string;
  timestamp: number;
  data: Record<string, unknown>;
}

export interface AdminLogQuery {
  tenantId: string;
  /** Inclusive, epoch ms. */
  fromTime: number;
  /** Exclusive, epoch ms. */
  toTime: number;
  skip: number;
  take: number;
}

export interface AdminLogPage {
  events: AdminLogEntry[];
  /** Every event of the tenant in the window, not only the returned ones. */
  total: number;
}
