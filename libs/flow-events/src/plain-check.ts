import {
  authMethodTypes,
  decisions,
  desktopLoginDecisions,
  errorCodes,
  flowActions,
  flowStatuses,
  flowTypes,
} from './actions';

/**
 * A quick test that an event plainly satisfies the zod schemas of schema.ts, run before them: every flow event
 * is validated twice (by the producer, and by the consumer after decoding), and zod's object parsing was the
 * largest part of an event's cost. It only ever says "plainly valid" or "ask zod": whatever it does not accept
 * goes through zod, which decides and explains, so a gap here costs time, never correctness. It must never
 * accept what zod refuses; plain-check.test.ts compares both on valid, boundary and hostile events.
 */

type Check = (value: unknown) => boolean;

// zod's own IPv4 pattern (z.string().ip()); IPv6 addresses are left to zod.
const IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const ACTION_NAME = /^[a-z0-9_]{1,64}$/;

const string =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === 'string' && v.length >= min && v.length <= max;
const id = string(1, 200);
const text = string(0, 2000);
const shortText = string(0, 200);
const ipv4: Check = (v) => typeof v === 'string' && IPV4.test(v);
const TRACE_ID = /^[0-9a-f]{32}$/;
const traceIdText: Check = (v) => typeof v === 'string' && TRACE_ID.test(v);
const oneOf = (values: readonly string[]): Check => {
  const set = new Set<unknown>(values);
  return (v) => set.has(v);
};
const number =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const epochRange = number(0, 8.64e15);
const epochMs: Check = (v) => epochRange(v) && Number.isInteger(v);
const boolean: Check = (v) => typeof v === 'boolean';

/**
 * A plain object (no array, class instance or prototype tricks) whose every member is known and passes its
 * check (undefined counts as absent), with every required member present. Walks the members the object has,
 * not every member the schema could have: an event carries a handful of the thirty.
 */
function plainObject(value: unknown, checks: Map<string, Check>, required: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) {
    const check = checks.get(key);
    const v = (value as Record<string, unknown>)[key];
    if (!check || (v !== undefined && !check(v))) return false;
  }
  for (const key of required) if ((value as Record<string, unknown>)[key] === undefined) return false;
  return true;
}

const schema = (required: Record<string, Check>, optional: Record<string, Check>) => {
  const checks = new Map(Object.entries({ ...optional, ...required }));
  const requiredKeys = Object.keys(required);
  return (value: unknown): value is Record<string, unknown> => plainObject(value, checks, requiredKeys);
};

const deviceInfoMembers = {
  osType: shortText,
  osVersion: shortText,
  browserType: shortText,
  browserVersion: shortText,
  detectedName: shortText,
  alias: shortText,
};
const deviceInfo: Check = schema({}, deviceInfoMembers);
const locationMembers = {
  lat: number(-90, 90),
  lng: number(-180, 180),
  city: shortText,
  country: shortText,
  state: shortText,
  source: shortText,
};
const location: Check = schema({}, locationMembers);

const detailValue: Check = (v) =>
  text(v) || number(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)(v) || boolean(v);
function details(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return false;
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || key === '__proto__' || key === 'action' || key === 'clientIp')
      return false;
    if (!detailValue((value as Record<string, unknown>)[key]) || ++count > 50) return false;
  }
  return true;
}

const recordFacts = {
  userId: id,
  userAlias: string(1, 200),
  email: string(3, 254),
  attemptedEmail: string(3, 254),
  traceId: traceIdText,
  accessingDevice: text,
  accessingDeviceInfo: deviceInfo,
  accessingDeviceLocation: location,
  accessingIp: shortText,
  authenticatingDevice: text,
  authenticatingDeviceInfo: deviceInfo,
  failureReason: text,
  isNewAuthenticationDeviceForRP: boolean,
};

const inputRequired = { flowId: id, tenantId: id, appId: id, action: oneOf(flowActions), clientIp: ipv4 };
const inputOptional = {
  eventId: id,
  timestamp: epochMs,
  ...recordFacts,
  accessingIp: ipv4,
  authMethodType: oneOf(authMethodTypes),
  consentDecision: oneOf(decisions),
  desktopLoginDecision: oneOf(desktopLoginDecisions),
  desktopTransactionDecision: oneOf(decisions),
  errorCode: oneOf(errorCodes),
  flowType: oneOf(flowTypes),
  status: oneOf(flowStatuses),
  details,
};

/** flowEventInputSchema (strict) plainly accepts this input. */
export const plainlyValidInput = schema(inputRequired, inputOptional);

const wireRequired = {
  eventId: id,
  flowId: id,
  tenantId: id,
  appId: id,
  timestamp: epochMs,
  action: (v: unknown) => typeof v === 'string' && ACTION_NAME.test(v),
  clientIp: shortText,
  details,
};
const wireOptional = {
  ...recordFacts,
  authMethodType: shortText,
  consentDecision: shortText,
  desktopLoginDecision: shortText,
  desktopTransactionDecision: shortText,
  errorCode: shortText,
  flowType: shortText,
  status: shortText,
};

/**
 * flowEventWireSchema plainly accepts these facts and would return them unchanged: they hold no key it would
 * strip (decoding builds them with known keys only).
 */
export const plainlyValidWire = schema(wireRequired, wireOptional);
