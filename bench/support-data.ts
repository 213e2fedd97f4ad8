/**
 * The people and activity records of the support benches (support.bench.ts, people.bench.ts): one tenant,
 * SUPPORT_USERS people and SUPPORT_RECORDS flows of SUPPORT_EVENTS events each, all derived from an index so
 * every loader (memory, Mongo, the embedded engine) writes the same data.
 */
import type { FlowEventFacts } from '@sesame/flow-events';

export const USERS = Number(process.env.SUPPORT_USERS ?? 100_000);
export const RECORDS = Number(process.env.SUPPORT_RECORDS ?? 1_000_000);
export const EVENTS = Number(process.env.SUPPORT_EVENTS ?? 2);
export const SAMPLES = Number(process.env.SUPPORT_SAMPLES ?? 300);
export const TENANT = 'bench-tenant';
export const APPS = ['app-1', 'app-2', 'app-3'];
export const T0 = 1_700_000_000_000;

export const userId = (i: number) => `user-${i}`;
export const emailOf = (i: number) => `person${i}@example.com`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export function percentiles(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** A flow of `EVENTS` events for record r: person r % USERS, every fifth one a failure. */
export function flowEvents(r: number): FlowEventFacts[] {
  const person = r % USERS;
  const start = T0 + r * 1000;
  const failed = r % 5 === 0;
  return Array.from({ length: EVENTS }, (_, e) => ({
    eventId: `e-${r}-${e}`,
    flowId: `flow-${r}`,
    tenantId: TENANT,
    appId: APPS[r % APPS.length]!,
    timestamp: start + e * 1000,
    action: e === 0 ? 'auth_start_oidc' : failed ? 'email_verification_failure' : 'auth_complete',
    clientIp: '203.0.113.7',
    userId: userId(person),
    email: emailOf(person),
    flowType: 'authentication',
    accessingDevice: 'macOS 14, Chrome 120',
    authMethodType: 'email_otp',
    ...(e === EVENTS - 1 ? { status: failed ? 'failure' : 'success' } : {}),
    ...(e === EVENTS - 1 && failed ? { errorCode: 'auth_failure', failureReason: 'wrong email code' } : {}),
    details: {},
  }));
}

/** Person i: created one second after person i - 1 (so the newest-first list has an order to keep). */
export const userOf = (i: number) => ({ userId: userId(i), email: emailOf(i), createdAt: T0 + i * 1000 });

export const membershipOf = (i: number) => ({
  tenantId: TENANT,
  appId: APPS[i % APPS.length]!,
  userId: userId(i),
  alias: `alias-${i}`,
  acrValues: [],
  confirmed: true,
  firstLoginAt: T0,
  lastLoginAt: T0 + 1000,
  deviceLogins: { [`device-${i}`]: { firstLoginAt: T0, lastLoginAt: T0 + 1000 } },
});

export const deviceOf = (i: number) => ({
  userId: userId(i),
  deviceId: `device-${i}`,
  registeredAt: T0,
  lastSeenAt: T0 + 1000,
  facts: {
    deviceName: 'Mac',
    osType: 'macOS',
    osVersion: '14',
    browserType: 'Chrome',
    browserVersion: '120',
  },
});
