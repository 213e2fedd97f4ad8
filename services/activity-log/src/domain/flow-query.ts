import type { ActivityRecord } from './activity-record';

/** Support's filter over a tenant's flows; an absent member does not filter. */
export interface FlowListFilter {
  appId?: string;
  userId?: string;
  status?: string;
  flowType?: string;
  authMethodType?: string;
  /** The address typed in the flow (lower-case), whether or not an account has it. */
  attemptedEmail?: string;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
}

/** The equality members of FlowListFilter, in the order the indexes name them. */
export const flowEqualityFields = ['appId', 'userId', 'status', 'flowType', 'authMethodType'] as const;
/** Every member a support filter may name by equality: the five above and the typed address (issue 38). */
export const flowFilterFields = [...flowEqualityFields, 'attemptedEmail'] as const;

/** Whose records an erasure deletes: the person's (by user id), the address's (typed in a flow), or both. */
export interface EraseTarget {
  userId?: string;
  attemptedEmail?: string;
}

/** Whether a record of the tenant is one the erasure deletes (either member matches). */
export function matchesErasure(r: ActivityRecord, tenantId: string, t: EraseTarget): boolean {
  if (r.tenantId !== tenantId) return false;
  return (
    (t.userId !== undefined && r.userId === t.userId) ||
    (t.attemptedEmail !== undefined && r.attemptedEmail === t.attemptedEmail)
  );
}

/** A record's place in newest-first order: by timestamp, then by id (flow ids never repeat in a tenant). */
export interface FlowPosition {
  timestamp: number;
  id: string;
}

export interface FlowListQuery {
  tenantId: string;
  filter: FlowListFilter;
  /** At most this many records. */
  limit: number;
  /** Only records strictly older than this position (the previous page's last record). */
  after?: FlowPosition;
}

/** Newest first by (timestamp, id): the one order of every support listing and export. */
export function newestFirst(a: FlowPosition, b: FlowPosition): number {
  return b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** True when the record comes after `position` in newest-first order. */
export function isOlderThan(r: FlowPosition, position: FlowPosition): boolean {
  return r.timestamp < position.timestamp || (r.timestamp === position.timestamp && r.id < position.id);
}

/** Whether a record of any tenant is one the query asks for (cursor aside). */
export function matchesFlowFilter(r: ActivityRecord, tenantId: string, f: FlowListFilter): boolean {
  if (r.tenantId !== tenantId) return false;
  if (f.appId !== undefined && r.appId !== f.appId) return false;
  if (f.userId !== undefined && r.userId !== f.userId) return false;
  if (f.status !== undefined && r.status !== f.status) return false;
  if (f.flowType !== undefined && r.flowType !== f.flowType) return false;
  if (f.authMethodType !== undefined && r.authMethodType !== f.authMethodType) return false;
  if (f.attemptedEmail !== undefined && r.attemptedEmail !== f.attemptedEmail) return false;
  if (f.from !== undefined && r.timestamp < f.from) return false;
  if (f.to !== undefined && r.timestamp >= f.to) return false;
  return true;
}

/** The filter of an export that started at `snapshotAt`: records of flows started later are not in it. */
export function snapshotFilter(filter: FlowListFilter, snapshotAt: number): FlowListFilter {
  return { ...filter, to: Math.min(filter.to ?? Number.POSITIVE_INFINITY, snapshotAt) };
}

const MAX_ID = 200;

/** The opaque cursor of a position: base64url of [timestamp, id]. */
export function encodeCursor(p: FlowPosition): string {
  return Buffer.from(JSON.stringify([p.timestamp, p.id])).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this service made. */
export function decodeCursor(cursor: string): FlowPosition | undefined {
  if (cursor.length > 400 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [timestamp, id] = value as unknown[];
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) return undefined;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID) return undefined;
  return { timestamp, id };
}
