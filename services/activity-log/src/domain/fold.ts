import type { FlowEventFacts } from '@sesame/flow-events';
import { type ActivityEventEntry, type FlowState, type RecordField, recordFields } from './activity-record';

/**
 * A flow keeps at most this many events (the first ones by time): a runaway producer must not grow one
 * document towards Mongo's 16 MB limit. Keeping the first N of a set is itself order-independent.
 */
export const MAX_EVENTS_PER_FLOW = 1000;

/**
 * And at most this many bytes of events (as JSON, which BSON stays close to): a few large events must not
 * make a document Mongo refuses (16 MB), which would stall the partition. Half the limit leaves room for the
 * record's other fields and BSON's overhead. Keeping the longest prefix by time that fits is order-independent
 * like the count cap: an event dropped once is after the prefix, and events added later only move the cut
 * earlier.
 */
export const MAX_EVENT_BYTES_PER_FLOW = 8 * 1024 * 1024;

/** Total order of events: by timestamp, ties by event id. Fixed width so string comparison is numeric. */
export const orderKey = (e: { timestamp: number; eventId: string }) =>
  `${String(e.timestamp).padStart(16, '0')}|${e.eventId}`;

const compareEntries = (a: ActivityEventEntry, b: ActivityEventEntry) =>
  a.timestamp - b.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function entryOf(e: FlowEventFacts): ActivityEventEntry {
  return {
    id: e.eventId,
    timestamp: e.timestamp,
    payload: { flowId: e.flowId, details: { action: e.action, clientIp: e.clientIp, ...e.details } },
  };
}

const outcomeFields = ['errorCode', 'failureReason'] as const;

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Folds events of one flow into its state. The result depends only on the set of events seen, never on the
 * order or number of deliveries:
 * - `events`: union by event id, sorted by (timestamp, id), the first MAX_EVENTS_PER_FLOW kept that fit in
 *   MAX_EVENT_BYTES_PER_FLOW;
 * - `timestamp`: the earliest event time; `appId`: from the earliest event (by order key);
 * - every other record fact: the value of the latest event (by order key) that carries a non-empty value,
 *   except that errorCode and failureReason older than the latest status are dropped;
 * Event ids are unique per flow; a redelivered event has the same order key and so changes nothing.
 * Returns undefined when the events add nothing (all seen before), so the caller can skip the write.
 *
 * `storedBytes`: the UTF-8 length of the stored record's JSON, when the store has it (the embedded engine
 * reads it as text). It bounds the stored entries' size, so the byte cap measures them (one JSON.stringify
 * each, not cached for entries parsed again at every read) only when that bound and the new entries pass it.
 */
export function foldFlow(
  state: FlowState | undefined,
  events: FlowEventFacts[],
  storedBytes?: number,
): FlowState | undefined {
  const first = events[0];
  if (!first) return undefined;
  const next: FlowState = state
    ? { record: { ...state.record, events: [...state.record.events] }, versions: { ...state.versions } }
    : {
        record: {
          id: first.flowId,
          tenantId: first.tenantId,
          appId: first.appId,
          timestamp: first.timestamp,
          events: [],
        },
        versions: { appId: orderKey(first) },
      };
  const { record, versions } = next;
  const seen = new Set(record.events.map((e) => e.id));
  let changed = !state;
  // What the events can weigh at most: the stored record's JSON (which holds the stored entries) plus the
  // new entries with their separators. Within the cap, no entry needs measuring.
  let boundBytes = state ? (storedBytes ?? Number.POSITIVE_INFINITY) : 2;
  for (const e of events) {
    const key = orderKey(e);
    if (!seen.has(e.eventId)) {
      seen.add(e.eventId);
      const entry = entryOf(e);
      record.events.push(entry);
      boundBytes += bytesOf(entry) + 1;
      changed = true;
    }
    if (e.timestamp < record.timestamp) {
      record.timestamp = e.timestamp;
      changed = true;
    }
    if (key < (versions.appId ?? '~')) {
      record.appId = e.appId;
      versions.appId = key;
      changed = true;
    }
    for (const field of recordFields) {
      const value = e[field];
      if (isEmpty(value)) continue;
      const current = versions[field];
      if (current !== undefined && key <= current) continue;
      // Facts that are objects (device info, location) are flat: a shallow copy leaves the state nothing
      // shared with the caller's events, so a store may keep the state as it is.
      (record as Record<RecordField, unknown>)[field] = typeof value === 'object' ? { ...value } : value;
      versions[field] = key;
      changed = true;
    }
  }
  if (!changed) return undefined;
  // errorCode and failureReason say why the flow failed (spec 2.4): one older than the latest status belongs
  // to a step the flow got past (a dead code, then a new one that signed in), so the record does not show it.
  // Its version stays, so an older event cannot bring it back: the result still depends only on the set.
  for (const field of outcomeFields) {
    const at = versions[field];
    if (at !== undefined && versions.status !== undefined && at < versions.status) delete record[field];
  }
  record.events.sort(compareEntries);
  if (record.events.length > MAX_EVENTS_PER_FLOW) record.events.length = MAX_EVENTS_PER_FLOW;
  if (boundBytes > MAX_EVENT_BYTES_PER_FLOW) {
    record.events.length = prefixWithinBytes(record.events, MAX_EVENT_BYTES_PER_FLOW);
  }
  return next;
}

/** JSON size of an entry; entries are never changed once made, so each is measured once per process. */
const entryBytes = new WeakMap<ActivityEventEntry, number>();
function bytesOf(entry: ActivityEventEntry): number {
  let bytes = entryBytes.get(entry);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify(entry));
    entryBytes.set(entry, bytes);
  }
  return bytes;
}

/** How many of the entries, from the first, fit in `limit` bytes of JSON (with their separators). */
function prefixWithinBytes(entries: ActivityEventEntry[], limit: number): number {
  let total = 2;
  for (let i = 0; i < entries.length; i++) {
    total += bytesOf(entries[i]!) + (i ? 1 : 0);
    if (total > limit) return i;
  }
  return entries.length;
}

/** Groups a batch by (tenant, flow), keeping each flow's events together for one write per flow. */
export function groupByFlow(events: FlowEventFacts[]): Map<string, FlowEventFacts[]> {
  const groups = new Map<string, FlowEventFacts[]>();
  for (const e of events) {
    const key = flowKey(e.tenantId, e.flowId);
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  return groups;
}

export const flowKey = (tenantId: string, flowId: string) => JSON.stringify([tenantId, flowId]);
