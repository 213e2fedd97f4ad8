import type { FlowRecord } from '../support/port';
import type { MemoryFlow, MemorySupport } from './support-memory';

const T0 = Date.UTC(2026, 0, 1, 9, 0, 0);

const event = (flowId: string, n: number, action: string, at: number) => ({
  id: `${flowId}-e${n}`,
  timestamp: at + n * 1000,
  payload: { flowId, details: { action, clientIp: '203.0.113.7' } },
});

/** A flow of `tenantId` with `actions` as its events, one second apart. */
export function flowOf(
  tenantId: string,
  id: string,
  at: number,
  actions: string[],
  facts: Partial<FlowRecord> = {},
): MemoryFlow {
  return {
    tenantId,
    id,
    timestamp: at,
    applicationId: 'app-1',
    accessingDevice: 'macOS 14 Chrome 120',
    accessingDeviceInfo: { osType: 'macOS', osVersion: '14', browserType: 'Chrome', browserVersion: '120' },
    accessingDeviceLocation: { city: 'Berlin', country: 'DE' },
    accessingIp: '203.0.113.7',
    flowType: 'authentication',
    events: actions.map((a, n) => event(id, n, a, at)),
    ...facts,
  };
}

/**
 * Fills `m` with the people and flows the support tests read: in tenant `tenantId`, Alice (alice@example.com, user-alice) on
 * one device and one application, who signed in once (flow-ok) and then typed five wrong codes (flow-bad);
 * Bob's country-blocked try; and in `otherTenantId` a person with Alice's address and a flow of theirs.
 */
export function supportData(
  m: MemorySupport,
  tenantId: string,
  otherTenantId: string,
  appId = 'app-1',
): MemorySupport {
  m.addPerson({
    tenantId,
    userId: 'user-alice',
    email: 'alice@example.com',
    devices: [
      {
        deviceId: 'device-1',
        name: 'Chrome on macOS',
        os: 'macOS 14',
        browser: 'Chrome 120',
        firstSeen: T0,
        lastSeen: T0 + 3_600_000,
        passkeys: 1,
        blocked: false,
      },
    ],
    memberships: [
      { appId, appName: 'Acme shop', alias: 'alice-1', firstLogin: T0, lastLogin: T0, confirmed: true },
    ],
  });
  m.addPerson({
    tenantId: otherTenantId,
    userId: 'user-other',
    email: 'alice@example.com',
    devices: [],
    memberships: [],
  });
  m.addFlow(
    flowOf(
      tenantId,
      'flow-ok',
      T0,
      ['auth_start_oidc', 'desktop_login_page', 'email_verification_success', 'auth_complete'],
      {
        applicationId: appId,
        userId: 'user-alice',
        email: 'alice@example.com',
        status: 'success',
        authMethodType: 'email_otp',
      },
    ),
  );
  m.addFlow(
    flowOf(
      tenantId,
      'flow-bad',
      T0 + 3_600_000,
      ['auth_start_oidc', 'desktop_login_page', ...Array<string>(5).fill('email_verification_failure')],
      {
        applicationId: appId,
        userId: 'user-alice',
        email: 'alice@example.com',
        status: 'failure',
        errorCode: 'auth_failure',
        failureReason: '=HYPERLINK("http://evil.test") email code expired or tried too often',
        authMethodType: 'email_otp',
      },
    ),
  );
  m.addFlow(
    flowOf(tenantId, 'flow-ru', T0 + 1_800_000, ['auth_start_oidc', 'restricted_location'], {
      applicationId: appId,
      status: 'blocked',
      failureReason: 'sign-in from a blocked country (RU)',
    }),
  );
  m.addFlow(
    flowOf(otherTenantId, 'flow-other', T0 + 60_000, ['auth_start_oidc'], {
      userId: 'user-other',
      email: 'alice@example.com',
      status: 'incomplete',
    }),
  );
  return m;
}
