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
 * only (supportRecordToProto): the spec's record has no email.
 */
export function recordToProto({ email: _email, ...record }: ActivityRecord): activitylogs.ActivityLogRecord {
  return messageOf(record);
}

/** The record as its message for support's RPCs: the spec's members plus the person's email when known. */
export function supportRecordToProto(record: ActivityRecord): activitylogs.ActivityLogRecord {
  return messageOf(record);
}

function messageOf({
  appId,
  tenantId,
  isNewAuthenticationDeviceForRP,
  events,
  ...facts
}: ActivityRecord): activitylogs.ActivityLogRecord {
  return {
    ...facts,
    applicationId: appId,
    businessUnit: tenantId,
    isNewAuthenticationDeviceForRp: isNewAuthenticationDeviceForRP,
    events: events.map(eventToProto),
  };
}

export function adminEntryToProto({ timestamp, ...entry }: AdminLogEntry): events.AdminEvent {
  return { ...entry, timestampMs: timestamp };
}
