import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { FlowEventInput, FlowEvents } from '@sesame/flow-events';
import { MemoryKeyValueStore } from '@sesame/kv';
import type { Logger } from '@sesame/platform';
import { deviceFromUserAgent } from '../devices';
import { flowRecorders } from '../signin/flow-events';
import type { EnrollmentFlow } from './flow';
import { EnrollmentFlows, FlowStore, RegistrationFlows } from './flow-store';

const ID = '0b8f4c1e-6d7a-4c51-9a0e-2f3b4c5d6e7f';
const at = Date.UTC(2026, 10, 26);
const device = {
  deviceId: 'device-1',
  facts: deviceFromUserAgent(
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  ),
};

/** An enrollment as the previous version stored it: everything but `journey`. */
const oldEnrollment = {
  id: ID,
  tenantId: 'tenant-e',
  appId: 'app-e',
  clientId: 'client-e',
  appName: 'Bank',
  userId: 'user-e',
  sessionKey: 'session-key',
  request: { redirectUri: 'https://rp.example/cb', state: 's' },
  locale: 'en',
  createdAt: at,
  expiresAt: at + 600_000,
  clientIp: '203.0.113.7',
  originatingDevice: device,
};

/** A registration as the previous version stored it: everything but `journey`. */
const oldRegistration = {
  id: ID,
  sessionKey: 'session-key',
  invitation: {
    flowId: ID,
    tenantId: 'tenant-r',
    appId: 'app-r',
    clientId: 'client-r',
    appName: 'Bank',
    registrationRedirectUri: 'https://rp.example/registered',
    email: 'ada@example.com',
    scopes: ['openid'],
    verifications: [],
    confirmedUser: false,
    locale: 'en',
    createdAt: at,
    expiresAt: at + 600_000,
  },
  userId: 'user-r',
  step: 'passkey',
  locale: 'en',
  clientIp: '203.0.113.7',
  originatingDevice: device,
  createdAt: at,
  expiresAt: at + 600_000,
};

/** The events a recorder publishes, captured. */
function capturedEvents() {
  const published: FlowEventInput[] = [];
  const events = {
    recordAll: async (inputs: FlowEventInput[]) => {
      published.push(...inputs);
      return [];
    },
  } as unknown as FlowEvents;
  const logger = { error: () => undefined } as unknown as Logger;
  return { published, ...flowRecorders(events, logger) };
}

describe('flow stores read flows the previous version stored without `journey` (rolling deploy)', () => {
  it.each([
    {
      journey: 'enrollment',
      stored: oldEnrollment,
      read: (kv: MemoryKeyValueStore) => new EnrollmentFlows(kv).get(ID),
      subject: ['enrollment', 'tenant-e', 'app-e', 'user-e'],
    },
    {
      journey: 'registration',
      stored: oldRegistration,
      read: (kv: MemoryKeyValueStore) => new RegistrationFlows(kv).get(ID),
      subject: ['enrollment', 'tenant-r', 'app-r', 'user-r'],
    },
  ])(
    'a stored $journey reads as one, and its events are its own',
    async ({ journey, stored, read, subject }) => {
      const kv = new MemoryKeyValueStore();
      const keyspace = journey === 'enrollment' ? 'enroll-flow' : 'registration-flow';
      await kv.set(`${keyspace}:${ID}`, JSON.stringify(stored), { ttlMs: 600_000 });
      const flow = await read(kv);
      assert.deepEqual(flow, { ...stored, journey });

      const { published, record } = capturedEvents();
      await record(flow!, 'new_device_registered');
      assert.equal(published.length, 1);
      const [event] = published;
      assert.deepEqual([event?.flowType, event?.tenantId, event?.appId, event?.userId], subject);
    },
  );

  it('a flow stored with its journey reads as stored, and a sign-in flow gets no journey stamped', async () => {
    const kv = new MemoryKeyValueStore();
    const current = { ...oldEnrollment, journey: 'enrollment' };
    await kv.set(`enroll-flow:${ID}`, JSON.stringify(current), { ttlMs: 600_000 });
    assert.deepEqual(await new EnrollmentFlows(kv).get(ID), current);

    const signIn = { ...oldEnrollment, step: 'identify' };
    await kv.set(`flow:${ID}`, JSON.stringify(signIn), { ttlMs: 600_000 });
    assert.deepEqual(await new FlowStore(kv).get(ID), signIn);
  });
});

describe('a one-time act on a flow (claimOnce)', () => {
  it('is claimed by the first of several racing callers only, per flow and per act', async () => {
    const kv = new MemoryKeyValueStore();
    const flows = new EnrollmentFlows(kv);
    const flow: EnrollmentFlow = { ...oldEnrollment, journey: 'enrollment', locale: 'en' };
    const tries = await Promise.all(Array.from({ length: 10 }, () => flows.claimOnce(flow, 'pick', at)));
    assert.equal(tries.filter(Boolean).length, 1);
    assert.equal(await flows.claimOnce(flow, 'pick', at), false);
    assert.equal(await flows.claimOnce(flow, 'other', at), true, 'another act is its own');
    assert.equal(await flows.claimOnce({ ...flow, id: ID.replace('0b8f', '1b8f') }, 'pick', at), true);
  });
});
