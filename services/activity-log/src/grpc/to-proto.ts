import type { events, activitylogs, common } from '@sesame/proto';
import type { ActivityRecord, AdminLogEntry } from '../domain/activity-record';

type DeviceFacts = ActivityRecord['accessingDeviceInfo'];

const device = (d: DeviceFacts): common.DeviceInfo | undefined =>
  d && {
    osType: d.osType ?? '',
    osVersion: d.osVersion ?? '',
    browserType: d.browserType ?? '',
    browserVersion: d.browserVersion ?? '',
    detectedName: d.detectedName ?? '',
    alias: d.alias ?? '',
  };

const location = (l: ActivityRecord['accessingDeviceLocation']): common.Location | undefined =>
  l && {
    lat: l.lat,
    lng: l.lng,
    city: l.city ?? '',
    country: l.country ?? '',
    state: l.state ?? '',
    source: l.source ?? '',
  };

export function recordToProto(r: ActivityRecord): activitylogs.ActivityLogRecord {
  return {
    id: r.id,
    userId: r.userId,
    userAlias: r.userAlias,
    applicationId: r.appId,
    businessUnit: r.tenantId,
    timestamp: r.timestamp,
    accessingDevice: r.accessingDevice,
    accessingDeviceInfo: device(r.accessingDeviceInfo),
    accessingDeviceLocation: location(r.accessingDeviceLocation),
    accessingIp: r.accessingIp,
    authenticatingDevice: r.authenticatingDevice,
    authenticatingDeviceInfo: device(r.authenticatingDeviceInfo),
    authMethodType: r.authMethodType,
    consentDecision: r.consentDecision,
    desktopLoginDecision: r.desktopLoginDecision,
    desktopTransactionDecision: r.desktopTransactionDecision,
    errorCode: r.errorCode,
    failureReason: r.failureReason,
    flowType: r.flowType,
    isNewAuthenticationDeviceForRp: r.isNewAuthenticationDeviceForRP,
    status: r.status,
    events: r.events.map((e) => ({
      id: e.id,
      timestamp: e.timestamp,
      flowId: e.payload.flowId,
      details: e.payload.details,
    })),
  };
}

export function adminEntryToProto(e: AdminLogEntry): events.AdminEvent {
  return {
    id: e.id,
    activityType: e.activityType,
    adminEmail: e.adminEmail,
    clientIp: e.clientIp,
    sessionId: e.sessionId,
    tenantId: e.tenantId,
    timestampMs: e.timestamp,
    data: e.data,
  };
}
