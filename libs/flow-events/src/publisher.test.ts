import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type EventPublisher, MemoryEventBus, type OutgoingEvent } from '@sesame/events';
import { events, topics } from '@sesame/proto';
import pino from 'pino';
import { UndecodableFlowEvent, decodeFlowEvent, encodeFlowEvent } from './codec';
import { InvalidFlowEvent, createFlowEvents } from './publisher';
import type { FlowEventInput } from './schema';

const silent = pino({ level: 'silent' });
const step: FlowEventInput = {
  flowId: 'flow-1',
  tenantId: 'tenant-a',
  appId: 'app-1',
  action: 'auth_complete',
  clientIp: '203.0.113.7',
};

function capture(): { publisher: EventPublisher; sent: { topic: string; event: OutgoingEvent }[] } {
  const sent: { topic: string; event: OutgoingEvent }[] = [];
  return {
    sent,
    publisher: {
      async publish(topic, evs) {
        for (const event of evs) sent.push({ topic, event });
      },
      async flush() {},
      pending: () => 0,
    },
  };
}

describe('flow-event publisher', () => {
  it('publishes one FlowEvent on the flow-events topic keyed by flowId, with a generated id and time', async () => {
    const { publisher, sent } = capture();
    const flowEvents = createFlowEvents({ publisher, logger: silent, now: () => 1234, newId: () => 'ev-1' });
    const published = await flowEvents.record({
      ...step,
      userId: 'u-1',
      status: 'success',
      details: { attempt: 2 },
    });
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.topic, topics.flowEvents);
    assert.equal(sent[0]?.event.key, 'flow-1');
    const decoded = events.FlowEvent.decode(sent[0]!.event.value);
    assert.equal(decoded.eventId, 'ev-1');
    assert.equal(decoded.timestampMs, 1234);
    assert.equal(decoded.action, 'auth_complete');
    assert.equal(decoded.userId, 'u-1');
    assert.deepEqual(decoded.extraDetails, { attempt: 2 });
    assert.deepEqual(decodeFlowEvent(sent[0]!.event.value), published);
  });

  it('keeps a given eventId and timestamp', async () => {
    const { publisher, sent } = capture();
    await createFlowEvents({ publisher, logger: silent }).record({ ...step, eventId: 'mine', timestamp: 42 });
    const decoded = events.FlowEvent.decode(sent[0]!.event.value);
    assert.deepEqual([decoded.eventId, decoded.timestampMs], ['mine', 42]);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['an action outside the spec list', { action: 'logged_in' }, 'action'],
    ['a client IP that is not an IP address', { clientIp: 'localhost' }, 'clientIp'],
    ['a missing flowId', { flowId: undefined }, 'flowId'],
    ['a status outside the spec list', { status: 'ok' }, 'status'],
    ['a latitude out of range', { accessingDeviceLocation: { lat: 91 } }, 'accessingDeviceLocation.lat'],
    ['details that try to set action', { details: { action: 'x' } }, 'details'],
    ['an unknown member', { colour: 'blue' }, '(event)'],
  ];
  for (const [what, change, field] of invalid) {
    it(`rejects ${what} at the call site, naming ${field}, and publishes nothing`, async () => {
      const { publisher, sent } = capture();
      const flowEvents = createFlowEvents({ publisher, logger: silent });
      await assert.rejects(flowEvents.record({ ...step, ...change } as FlowEventInput), (err: unknown) => {
        assert.ok(err instanceof InvalidFlowEvent);
        assert.match(err.message, new RegExp(`${field.replace(/[().]/g, '\\$&')}:`));
        return true;
      });
      assert.equal(sent.length, 0);
    });
  }

  it('never rejects because the publisher failed: it logs and resolves', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (l: string) => void lines.push(l) });
    const failing: EventPublisher = {
      publish: async () => {
        throw new Error('outbox disk full');
      },
      flush: async () => {},
      pending: () => 0,
    };
    const published = await createFlowEvents({ publisher: failing, logger }).record(step);
    assert.equal(published.flowId, 'flow-1');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /flow event lost/);
  });

  it('publishes the records of one turn of the event loop in one call, in order, and resolves each after it', async () => {
    const calls: string[][] = [];
    let published = false;
    const publisher: EventPublisher = {
      async publish(_topic, evs) {
        calls.push(evs.map((e) => events.FlowEvent.decode(e.value).action));
        published = true;
      },
      async flush() {},
      pending: () => 0,
    };
    const flowEvents = createFlowEvents({ publisher, logger: silent });
    const first = flowEvents.recordAll([
      { ...step, action: 'auth_start_oidc' },
      { ...step, action: 'desktop_login_page' },
    ]);
    const second = flowEvents.record({ ...step, flowId: 'flow-2', action: 'auth_start_oidc' });
    await first.then(() => assert.ok(published));
    await second;
    assert.deepEqual(calls, [['auth_start_oidc', 'desktop_login_page', 'auth_start_oidc']]);
    const [start, page] = await first;
    assert.equal(page!.timestamp, start!.timestamp + 1); // the activity log orders them by time
    await flowEvents.record(step); // a later turn: a publish of its own
    assert.deepEqual(calls.at(-1), ['auth_complete']);
  });

  it('works over the in-memory bus', async () => {
    const bus = new MemoryEventBus();
    const got: Buffer[] = [];
    const consumer = bus.consumer({ groupId: 'g', topics: [topics.flowEvents] });
    await consumer.start(async (batch) => void got.push(...batch.map((e) => e.value)));
    await createFlowEvents({ publisher: bus.publisher, logger: silent }).record(step);
    for (let i = 0; i < 50 && !got.length; i++) await new Promise((r) => setTimeout(r, 10));
    await consumer.stop();
    assert.equal(decodeFlowEvent(got[0]!).flowId, 'flow-1');
  });
});

describe('flow-event codec', () => {
  it('round-trips every fact', () => {
    const facts = {
      eventId: 'e',
      flowId: 'f',
      tenantId: 't',
      appId: 'a',
      timestamp: 1_700_000_000_000,
      action: 'auth_complete',
      clientIp: '::1',
      userId: 'u',
      userAlias: 'al',
      accessingDevice: 'Linux Firefox',
      accessingDeviceInfo: { osType: 'Linux', browserType: 'Firefox' },
      accessingDeviceLocation: { lat: 0, lng: -3.5, city: 'X' },
      accessingIp: '10.0.0.1',
      authenticatingDevice: 'Pixel',
      authenticatingDeviceInfo: { detectedName: 'Pixel 8', alias: 'phone' },
      authMethodType: 'fido2',
      consentDecision: 'approve',
      desktopLoginDecision: 'login',
      desktopTransactionDecision: 'reject',
      errorCode: 'auth_failure',
      failureReason: 'N/A',
      flowType: 'ciba',
      status: 'failure',
      isNewAuthenticationDeviceForRP: true,
      details: { a: 'b', n: 1, ok: false },
    };
    assert.deepEqual(decodeFlowEvent(encodeFlowEvent(facts)), facts);
  });

  it('leaves out device and location members that are unset or "", and a device with none known', () => {
    const base = {
      eventId: 'e',
      flowId: 'f',
      tenantId: 't',
      appId: 'a',
      timestamp: 1_700_000_000_000,
      action: 'auth_complete',
      clientIp: '::1',
      details: {},
    };
    const decoded = decodeFlowEvent(
      encodeFlowEvent({
        ...base,
        accessingDeviceInfo: { osType: 'Linux', osVersion: '' },
        accessingDeviceLocation: { lat: 0, city: '', country: 'NL' },
        authenticatingDeviceInfo: { alias: '' },
      }),
    );
    assert.deepEqual(decoded, {
      ...base,
      accessingDeviceInfo: { osType: 'Linux' },
      accessingDeviceLocation: { lat: 0, country: 'NL' },
    });
  });

  it('calls bytes that are not a FlowEvent decode_failed', () => {
    assert.throws(
      () => decodeFlowEvent(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff])),
      (err: unknown) => err instanceof UndecodableFlowEvent && err.reason === 'decode_failed',
    );
  });

  it('calls a FlowEvent without a flowId validation_failed', () => {
    const bytes = events.FlowEvent.encode(
      events.FlowEvent.fromPartial({ eventId: 'e', tenantId: 't' }),
    ).finish();
    assert.throws(
      () => decodeFlowEvent(bytes),
      (err: unknown) =>
        err instanceof UndecodableFlowEvent &&
        err.reason === 'validation_failed' &&
        /flowId/.test(err.message),
    );
  });
  it('gives steps recorded by separate calls in the same millisecond ids that sort in the order they were recorded', async () => {
    // The activity log orders a flow's events by (timestamp, eventId): with random ids, two steps of one request
    // in the same millisecond (new_user_registered, then email_verification_success) came out swapped half the time.
    const { publisher } = capture();
    const flowEvents = createFlowEvents({ publisher, logger: silent, now: () => 1234 });
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await flowEvents.record(step)).eventId);
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
    // Another process's ids never collide with these, though its sequence starts at the same number.
    const other = createFlowEvents({ publisher, logger: silent, now: () => 1234 });
    assert.notEqual((await other.record(step)).eventId, ids[0]);
  });
});
