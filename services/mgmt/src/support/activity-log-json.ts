import type { activitylogs } from '@sesame/proto';

const eventJson = ({ id, timestamp, flowId, details }: activitylogs.ActivityEvent) => ({
  id,
  timestamp,
  payload: { flowId, details: details ?? {} },
});

/**
 * One record of spec 2.4. The message's members pass through as they are: a fact the flow never reported is
 * unset in the message and so left out of the JSON. Only the one member spelt differently and the events'
 * shape are mapped (`status` is named again only to keep the spec's member order).
 */
export function activityLogJson({
  isNewAuthenticationDeviceForRp,
  status,
  events,
  // Support's only (support/grpc-support.ts): the spec's record has no email, whatever the peer sends.
  email: _email,
  attemptedEmail: _attemptedEmail,
  traceId: _traceId,
  ...facts
}: activitylogs.ActivityLogRecord): ActivityLogJson {
  // The members are added to the rest object rather than spread into a new one: `{ ...facts, more }` costs
  // this V8 about 10 KB per record, a third of it promoted to the old space (docs/performance.md, the export).
  const json = facts as ActivityLogJson;
  json.isNewAuthenticationDeviceForRP = isNewAuthenticationDeviceForRp;
  json.status = status;
  json.events = events.map(eventJson);
  return json;
}

type ActivityLogJson = Omit<
  activitylogs.ActivityLogRecord,
  'isNewAuthenticationDeviceForRp' | 'email' | 'attemptedEmail' | 'traceId' | 'events'
> & {
  isNewAuthenticationDeviceForRP: boolean | undefined;
  events: ReturnType<typeof eventJson>[];
};
