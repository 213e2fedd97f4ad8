import type { events, activitylogs } from '@sesame/proto';
import type { ActivityEventEntry, ActivityRecord, AdminLogEntry } from '../domain/activity-record';

const eventToProto = (e: ActivityEventEntry): activitylogs.ActivityEvent => ({
  id: e.id,
  timestamp: e.timestamp,
  flowId: e.payload.flowId,
  details: e.payload.details,
});

/**
 * The record as its message. The flow's facts (user, devices, location, decisions, status) pass through as
 * they are: a fact the flow never reported is absent in the record and so absent (unset) in the message.
 * Only the members whose names differ are mapped.
 */
export function recordToProto({
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
