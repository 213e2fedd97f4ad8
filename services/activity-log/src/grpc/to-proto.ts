import type { events, activitylogs } from '@sesame/proto';
import type { ActivityEventEntry, ActivityRecord, AdminLogEntry } from '../domain/activity-record';

const eventToProto = (e: ActivityEventEntry): activitylogs.ActivityEvent => ({
  id: e.id,
  timestamp: e.timestamp,
  flowId: e.payload.flowId,
  details: e.payload.details,
});

/**
 * The record as its message for the spec's query. The flow's facts (user, devices, location, decisions,
 * status) pass through as they are: a fact the flow never reported is absent in the record and so absent
 * (unset) in the message. Only the members whose names differ are mapped. The person's email is support's
 * only (supportRecordToProto): the spec's record has no email, nor the typed address, nor the trace id.
 */
export function recordToProto({
  email: _email,
  attemptedEmail: _attempted,
  traceId: _traceId,
  ...record
}: ActivityRecord): activitylogs.ActivityLogRecord {
  return messageOf(record);
}

/** The record as its message for support's RPCs: the spec's members plus the person's email when known. */
export function supportRecordToProto(record: ActivityRecord): activitylogs.ActivityLogRecord {
  return messageOf(record);
}

type Renamed = 'applicationId' | 'businessUnit' | 'isNewAuthenticationDeviceForRp' | 'events';

function messageOf({
  appId,
  tenantId,
  isNewAuthenticationDeviceForRP,
  events,
  ...facts
}: ActivityRecord): activitylogs.ActivityLogRecord {
  // The renamed members are added to the rest object rather than spread into a new one: `{ ...facts, more }`
  // costs this V8 about 10 KB per record, a third of it promoted to the old space (docs/performance.md, the
  // export of a million records).
  const message: Omit<activitylogs.ActivityLogRecord, Renamed> & Partial<activitylogs.ActivityLogRecord> =
    facts;
  message.applicationId = appId;
  message.businessUnit = tenantId;
  message.isNewAuthenticationDeviceForRp = isNewAuthenticationDeviceForRP;
  message.events = events.map(eventToProto);
  return message as activitylogs.ActivityLogRecord;
}

export function adminEntryToProto({ timestamp, ...entry }: AdminLogEntry): events.AdminEvent {
  return { ...entry, timestampMs: timestamp };
}
