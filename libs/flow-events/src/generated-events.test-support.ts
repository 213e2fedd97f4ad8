import type { Gen } from '@sesame/testing';
import {
  authMethodTypes,
  decisions,
  desktopLoginDecisions,
  errorCodes,
  flowActions,
  flowStatuses,
  flowTypes,
} from './actions';

// Test support: generated flow events for plain-check-vs-schema.test.ts.

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-. <>&"\'é🙂';

/** A string around the bounds that matter (0, 1, 64, 200, 2000). */
function boundedText(g: Gen): string {
  const n = g.pick([0, 1, 2, 7, 63, 64, 65, 199, 200, 201, 1999, 2000, 2001]);
  return g.chance(0.5) ? 'a'.repeat(n) : g.text(LETTERS, n, n);
}

/** Something of another type than expected. */
const strangeValue = (g: Gen): unknown =>
  g.pick<() => unknown>([
    () => null,
    () => g.int(-5, 5),
    () => Number.NaN,
    () => Number.POSITIVE_INFINITY,
    () => true,
    () => [],
    () => ({}),
    () => Object.create(null),
    () => new Date(0),
    () => `${g.int(0, 9)}`,
  ])();

function octet(g: Gen): string {
  return g.pick([
    () => String(g.int(0, 255)),
    () => String(g.int(0, 9)),
    () => '256',
    () => `0${g.int(0, 9)}`,
    () => '-1',
    () => '',
  ])();
}

function ip(g: Gen): unknown {
  return g.pick([
    () => Array.from({ length: 4 }, () => String(g.int(0, 255))).join('.'),
    () => Array.from({ length: 4 }, () => String(g.int(0, 255))).join('.'),
    () => Array.from({ length: g.int(3, 5) }, () => octet(g)).join('.'),
    () => g.pick(['::1', '2001:db8::1', '::ffff:10.0.0.1', 'fe80::1%eth0', ':::1']),
    () => ` ${g.int(1, 9)}.2.3.4`,
    () => 'localhost',
    () => strangeValue(g),
  ])();
}

/** A member of the enumeration, or something close to one (another case, a neighbour's value, junk). */
function enumValue(g: Gen, values: readonly string[]): unknown {
  const value = g.pick(values);
  return g.pick([
    () => value,
    () => value,
    () => value,
    () => value.toUpperCase(),
    () => `${value} `,
    () => g.pick([...flowActions, ...flowStatuses, ...decisions]),
    () => boundedText(g),
    () => strangeValue(g),
  ])();
}

function idValue(g: Gen): unknown {
  return g.pick([
    () => g.text(LETTERS, 1, 40),
    () => g.text(LETTERS, 1, 40),
    () => boundedText(g),
    () => strangeValue(g),
  ])();
}

function numberValue(g: Gen, min: number, max: number): unknown {
  return g.pick([
    () => min + (max - min) * g.next(),
    () => g.pick([min, max, min - 1, max + 1, 0, -0]),
    () => g.pick([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]),
    () => strangeValue(g),
  ])();
}

const timestamp = (g: Gen): unknown =>
  g.pick([
    () => g.int(0, 2_000_000_000_000),
    () => g.pick([0, -1, 1.5, 8.64e15, 8.64e15 + 1, Number.NaN]),
    () => strangeValue(g),
  ])();

/** An object of optional members, some unknown, some of the wrong type; or no object at all. */
function nested(g: Gen, members: Record<string, (g: Gen) => unknown>): unknown {
  if (g.chance(0.08)) return strangeValue(g);
  const out: Record<string, unknown> = {};
  for (const name of g.some(Object.keys(members))) out[name] = members[name]!(g);
  if (g.chance(0.08)) out[g.pick(['extra', 'constructor', 'toString'])] = 'x';
  if (g.chance(0.03)) return Object.assign(Object.create(null) as object, out);
  return out;
}

const shortText = (g: Gen) => (g.chance(0.9) ? g.text(LETTERS, 0, 30) : boundedText(g));
const deviceInfo = (g: Gen) =>
  nested(g, {
    osType: shortText,
    osVersion: shortText,
    browserType: shortText,
    browserVersion: shortText,
    detectedName: shortText,
    alias: shortText,
  });
const location = (g: Gen) =>
  nested(g, {
    lat: (g) => numberValue(g, -90, 90),
    lng: (g) => numberValue(g, -180, 180),
    city: shortText,
    country: shortText,
    state: shortText,
    source: shortText,
  });

function details(g: Gen): unknown {
  if (g.chance(0.05)) return strangeValue(g);
  if (g.chance(0.03)) return JSON.parse('{"__proto__": {"x": 1}, "a": 1}');
  const out: Record<string, unknown> = {};
  const count = g.pick([0, 1, 3, 49, 50, 51]);
  for (let i = 0; i < count; i++)
    out[g.chance(0.02) ? g.pick(['action', 'clientIp']) : `k${i}`] = g.pick([
      () => shortText(g),
      () => g.int(-1000, 1000),
      () => g.next(),
      () => g.chance(0.5),
      () => (g.chance(0.1) ? strangeValue(g) : 'v'),
    ])();
  return out;
}

/** Every member an event may have, and how to generate it. */
const members: Record<string, (g: Gen) => unknown> = {
  flowId: idValue,
  tenantId: idValue,
  appId: idValue,
  action: (g) => enumValue(g, flowActions),
  clientIp: ip,
  eventId: idValue,
  timestamp,
  userId: idValue,
  userAlias: (g) => (g.chance(0.9) ? g.text(LETTERS, 1, 30) : boundedText(g)),
  email: (g) => (g.chance(0.9) ? `${g.text(LETTERS, 1, 30)}@example.com` : g.text(LETTERS, 0, 300)),
  attemptedEmail: (g) => (g.chance(0.9) ? `${g.text(LETTERS, 1, 30)}@example.com` : g.text(LETTERS, 0, 300)),
  accessingDevice: (g) => (g.chance(0.9) ? g.text(LETTERS, 0, 60) : boundedText(g)),
  accessingDeviceInfo: deviceInfo,
  accessingDeviceLocation: location,
  accessingIp: ip,
  authenticatingDevice: shortText,
  authenticatingDeviceInfo: deviceInfo,
  failureReason: (g) => (g.chance(0.9) ? g.text(LETTERS, 0, 60) : boundedText(g)),
  isNewAuthenticationDeviceForRP: (g) => (g.chance(0.9) ? g.chance(0.5) : strangeValue(g)),
  authMethodType: (g) => enumValue(g, authMethodTypes),
  consentDecision: (g) => enumValue(g, decisions),
  desktopLoginDecision: (g) => enumValue(g, desktopLoginDecisions),
  desktopTransactionDecision: (g) => enumValue(g, decisions),
  errorCode: (g) => enumValue(g, errorCodes),
  flowType: (g) => enumValue(g, flowTypes),
  status: (g) => enumValue(g, flowStatuses),
  details,
};
const required = ['flowId', 'tenantId', 'appId', 'action', 'clientIp'];
const optional = Object.keys(members).filter((name) => !required.includes(name));

const ipv4 = (g: Gen) => Array.from({ length: 4 }, () => String(g.int(0, 255))).join('.');
const validText = (max: number) => (g: Gen) => g.text(LETTERS, 0, Math.min(max, 40));
const validDevice = (g: Gen) =>
  Object.fromEntries(
    g.some(['osType', 'osVersion', 'browserType', 'alias']).map((k) => [k, validText(200)(g)]),
  );
/** A valid value of each member. */
const valid: Record<string, (g: Gen) => unknown> = {
  flowId: (g) => g.text(LETTERS, 1, 40),
  tenantId: (g) => g.text(LETTERS, 1, 40),
  appId: (g) => g.text(LETTERS, 1, 40),
  action: (g) => g.pick(flowActions),
  clientIp: ipv4,
  eventId: (g) => g.text(LETTERS, 1, 40),
  timestamp: (g) => g.int(0, 2_000_000_000_000),
  userId: (g) => g.text(LETTERS, 1, 40),
  userAlias: (g) => g.text(LETTERS, 1, 40),
  email: (g) => `${g.text(LETTERS, 1, 40)}@example.com`,
  attemptedEmail: (g) => `${g.text(LETTERS, 1, 40)}@example.com`,
  accessingDevice: validText(2000),
  accessingDeviceInfo: validDevice,
  accessingDeviceLocation: (g) => ({ lat: g.int(-90, 90), lng: g.int(-180, 180), city: validText(200)(g) }),
  accessingIp: ipv4,
  authenticatingDevice: validText(2000),
  authenticatingDeviceInfo: validDevice,
  failureReason: validText(2000),
  isNewAuthenticationDeviceForRP: (g) => g.chance(0.5),
  authMethodType: (g) => g.pick(authMethodTypes),
  consentDecision: (g) => g.pick(decisions),
  desktopLoginDecision: (g) => g.pick(desktopLoginDecisions),
  desktopTransactionDecision: (g) => g.pick(decisions),
  errorCode: (g) => g.pick(errorCodes),
  flowType: (g) => g.pick(flowTypes),
  status: (g) => g.pick(flowStatuses),
  details: (g) => Object.fromEntries(g.some(['a', 'b', 'c']).map((k) => [k, g.pick([1, 'x', true])])),
};

/**
 * A valid event (the required members and a few optional ones), then none to three changes: a member
 * removed, made undefined, unknown, or given a generated value that may be valid, on a bound or refused.
 */
export function generatedEvent(g: Gen): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of required) out[name] = valid[name]!(g);
  for (const name of g.some(optional, 8)) out[name] = valid[name]!(g);
  for (let changes = g.pick([0, 0, 1, 1, 2, 3]); changes > 0; changes--) {
    const name = g.pick(Object.keys(members));
    g.pick([
      () => delete out[name],
      () => {
        out[name] = undefined;
      },
      () => {
        out.unknownMember = 'x';
      },
      () => {
        out[name] = members[name]!(g);
      },
      () => {
        out[name] = members[name]!(g);
      },
    ])();
  }
  return out;
}
