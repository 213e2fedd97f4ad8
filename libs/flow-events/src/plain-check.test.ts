import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { plainlyValidInput, plainlyValidWire } from './plain-check';
import { toFlowEventFacts } from './publisher';
import { flowEventInputSchema, flowEventWireSchema } from './schema';

const base = {
  flowId: 'flow-1',
  tenantId: 'tenant-a',
  appId: 'app-1',
  action: 'auth_start_oidc',
  clientIp: '203.0.113.7',
};
const device = {
  osType: 'Windows',
  osVersion: '10',
  browserType: 'Chrome',
  browserVersion: '131',
  detectedName: 'PC',
};
const full = {
  ...base,
  eventId: 'ev-1',
  timestamp: 1_700_000_000_000,
  userId: 'u-1',
  userAlias: 'alias',
  accessingDevice: 'Windows 10, Chrome 131',
  accessingDeviceInfo: device,
  accessingDeviceLocation: {
    lat: 48.1,
    lng: 11.5,
    city: 'Munich',
    country: 'DE',
    state: 'Bavaria',
    source: 'ip',
  },
  accessingIp: '203.0.113.7',
  authenticatingDevice: 'iPhone',
  authenticatingDeviceInfo: { ...device, alias: 'mine' },
  failureReason: 'why',
  isNewAuthenticationDeviceForRP: true,
  authMethodType: 'email_otp',
  consentDecision: 'approve',
  desktopLoginDecision: 'login',
  desktopTransactionDecision: 'reject',
  errorCode: 'auth_failure',
  flowType: 'authentication',
  status: 'incomplete',
  details: { attempt: 2, ok: true, note: 'x' },
};

const long = (n: number) => 'a'.repeat(n);
const polluted = JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as Record<string, unknown>;
/** Changes to a valid event: each one valid, on a boundary, or something zod refuses. */
const changes: Array<Record<string, unknown>> = [
  {},
  { flowId: '' },
  { flowId: long(200) },
  { flowId: long(201) },
  { flowId: 7 },
  { action: 'not_an_action' },
  { action: 'Auth_Complete' },
  { clientIp: '::1' },
  { clientIp: '2001:db8::1' },
  { clientIp: '::ffff:10.0.0.1' },
  { clientIp: '256.1.1.1' },
  { clientIp: '01.2.3.4' },
  { clientIp: ' 1.2.3.4' },
  { clientIp: 'localhost' },
  { accessingIp: 'nope' },
  { timestamp: -1 },
  { timestamp: 1.5 },
  { timestamp: 8.64e15 },
  { timestamp: 8.64e15 + 1 },
  { timestamp: Number.NaN },
  { timestamp: '1' },
  { userAlias: '' },
  { userAlias: long(200) },
  { userAlias: long(201) },
  { failureReason: long(2000) },
  { failureReason: long(2001) },
  { accessingDevice: null },
  { userId: undefined },
  { unknownMember: 'x' },
  { accessingDeviceInfo: { ...device, extra: 'x' } },
  { accessingDeviceInfo: { osType: long(201) } },
  { accessingDeviceInfo: [] },
  { accessingDeviceLocation: { lat: 91 } },
  { accessingDeviceLocation: { lng: -180, lat: -90 } },
  { accessingDeviceLocation: { lat: Number.POSITIVE_INFINITY } },
  { accessingDeviceLocation: { lat: '1' } },
  { isNewAuthenticationDeviceForRP: 'yes' },
  { status: 'bogus' },
  { flowType: 'ciba' },
  { details: {} },
  { details: { action: 'x' } },
  { details: { clientIp: 'x' } },
  { details: { n: Number.POSITIVE_INFINITY } },
  { details: { n: null } },
  { details: { s: long(2000) } },
  { details: { s: long(2001) } },
  { details: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])) },
  { details: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
  { details: polluted },
  { details: [] },
];
const inputs = [base, full].flatMap((event) => changes.map((change) => ({ ...event, ...change })));

describe('plain checks: never accept what the zod schemas refuse', () => {
  it('accepts a producer input only when flowEventInputSchema does, and gives the facts zod gives', () => {
    let plain = 0;
    for (const input of inputs) {
      if (!plainlyValidInput(input)) continue;
      plain++;
      const zod = flowEventInputSchema.safeParse(input);
      assert.ok(zod.success, `plainly valid but zod refuses: ${JSON.stringify(input)}`);
      const id = () => 'generated';
      const viaZod = { eventId: 'generated', timestamp: 5, details: {}, ...zod.data };
      assert.deepEqual(
        toFlowEventFacts(input as never, () => 5, id),
        viaZod,
      );
    }
    // Every valid input takes the quick way, except IPv6 addresses (left to zod).
    const slow: Array<Record<string, unknown>> = inputs.filter(
      (i) => flowEventInputSchema.safeParse(i).success && !plainlyValidInput(i),
    );
    const ipv6 = ['::1', '2001:db8::1', '::ffff:10.0.0.1'];
    assert.deepEqual(
      slow.map((i) => i.clientIp),
      [...ipv6, ...ipv6],
    );
    assert.ok(plain > 20);
  });

  it('accepts decoded facts only when flowEventWireSchema does, unchanged by it', () => {
    let plain = 0;
    for (const input of inputs) {
      const facts = { eventId: 'ev-2', timestamp: 1, details: {}, ...input };
      if (!plainlyValidWire(facts)) continue;
      plain++;
      const zod = flowEventWireSchema.safeParse(facts);
      assert.ok(zod.success, `plainly valid but zod refuses: ${JSON.stringify(facts)}`);
      assert.deepEqual(zod.data, facts);
    }
    const slow = inputs
      .map((i) => ({ eventId: 'ev-2', timestamp: 1, details: {}, ...i }))
      .filter((f) => flowEventWireSchema.safeParse(f).success && !plainlyValidWire(f));
    // Except members the schema strips (decoding never makes them): zod returns the facts without them.
    assert.deepEqual(
      slow.map((f) => 'unknownMember' in f),
      [true, true],
    );
    assert.ok(plain > 20);
  });
});
