import { randomUUID } from 'node:crypto';
import type { FlowEventFacts } from '@sesame/flow-events';
import type { AdminLogEntry } from '../domain/activity-record';

/** A valid flow event; tests override what they are about. */
export function flowEvent(overrides: Partial<FlowEventFacts> = {}): FlowEventFacts {
  return {
    eventId: randomUUID(),
    flowId: 'flow-1',
    tenantId: 'tenant-a',
    appId: 'app-1',
    timestamp: 1_700_000_000_000,
    action: 'auth_start_oidc',
    clientIp: '203.0.113.7',
    details: {},
    ...overrides,
  };
}

/** The steps of one realistic authentication flow, 1 s apart, starting at `start`. */
export function authenticationFlow(
  flowId: string,
  start: number,
  facts: Partial<FlowEventFacts> = {},
): FlowEventFacts[] {
  const base = { flowId, ...facts };
  return [
    flowEvent({
      ...base,
      eventId: `${flowId}-e1`,
      timestamp: start,
      action: 'auth_start_oidc',
      flowType: 'authentication',
    }),
    flowEvent({
      ...base,
      eventId: `${flowId}-e2`,
      timestamp: start + 1000,
      action: 'desktop_login_page',
      accessingDevice: 'macOS 14 Chrome 120',
      accessingDeviceInfo: { osType: 'macOS', osVersion: '14', browserType: 'Chrome', browserVersion: '120' },
      accessingDeviceLocation: { lat: 52.37, lng: 4.89, city: 'Amsterdam', country: 'NL', source: 'ip' },
      accessingIp: '203.0.113.7',
      status: 'incomplete',
    }),
    flowEvent({
      ...base,
      eventId: `${flowId}-e3`,
      timestamp: start + 2000,
      action: 'desktop_consent',
      consentDecision: 'approve',
      details: { screen: 'consent', attempt: 1 },
    }),
    flowEvent({
      ...base,
      eventId: `${flowId}-e4`,
      timestamp: start + 3000,
      action: 'auth_complete',
      userId: facts.userId ?? 'user-1',
      authMethodType: 'fido2',
      status: 'success',
      failureReason: 'N/A',
      isNewAuthenticationDeviceForRP: false,
    }),
  ];
}

export function adminEvent(overrides: Partial<AdminLogEntry> = {}): AdminLogEntry {
  return {
    id: randomUUID(),
    activityType: 'administrator_create_application',
    adminEmail: 'admin@example.com',
    clientIp: '198.51.100.4',
    sessionId: 'session-1',
    tenantId: 'tenant-a',
    timestamp: 1_700_000_000_000,
    data: { appId: 'app-1', appName: 'Shop' },
    ...overrides,
  };
}
