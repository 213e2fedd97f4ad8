import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import type { Flow } from './flow';
import { PENDING } from './flow';
import { COMPACT_RECORD_BYTES, FlowStore } from './flow-store';
import { decodePendingFlow, encodePendingFlow } from './pending-flow';

/** A flow as newFlow makes it for a realistic request: a long redirect_uri, state and nonce, PKCE, a hint. */
function startedFlow(overrides: Partial<Flow> = {}, request: Partial<Flow['request']> = {}): Flow {
  const now = 1_780_000_000_000;
  return {
    id: randomUUID(),
    tenantId: 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    appId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    clientId: 'c9a646d3-9c61-4cb7-bfcd-ee2522c8f633',
    appName: 'Acme Customer Portal',
    sessionKey: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
    request: {
      clientId: 'c9a646d3-9c61-4cb7-bfcd-ee2522c8f633',
      redirectUri:
        'https://portal.acme-customer-services.example.com/auth/oidc/callback/sesame?tenant=emea-west&return=%2Faccount%2Fbilling%2Finvoices',
      scope: ['openid', 'email', 'profile', 'phone'],
      state:
        'eyJyZXR1cm5UbyI6Ii9hY2NvdW50L2JpbGxpbmcvaW52b2ljZXM_cGFnZT0zIiwiY3NyZiI6IjhmMmQ1YzFlLTk0YjctNGE2ZS1iMDNjLTdkMWU5ZjJhNGI2YyJ9',
      nonce: 'k3J9x2QpVmR7tYwZ8nB4cL6sD1fH5gA0eU_iO-yT',
      acrValues: [],
      loginHint: 'jane.doe@acme-customer-services.example.com',
      uiLocales: ['de-CH', 'fr'],
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      codeChallengeMethod: 'S256',
      ...request,
    },
    locale: 'de',
    createdAt: now,
    expiresAt: now + 1_800_000,
    step: 'identify',
    clientIp: '2001:db8:85a3::8a2e:370:7334',
    originatingDevice: {
      deviceId: '0b7e4d52-6c1f-4b8e-9a53-0f2d7c3e9a11',
      facts: {
        deviceName: 'Mac',
        osType: 'macOS',
        osVersion: '10.15.7',
        browserType: 'Chrome',
        browserVersion: '131.0.0.0',
      },
    },
    email: 'jane.doe@acme-customer-services.example.com',
    blockedCountries: ['KP', 'IR'],
    ...overrides,
  };
}

/** The flow as the store gave it back before pending records: its JSON read back. */
const asStored = (flow: Flow) => JSON.parse(JSON.stringify(flow)) as Flow;

describe('the pending record of a sign-in start (issue 42)', () => {
  it('keeps a realistic start with a long redirect_uri, state and nonce in at most 1 KiB', () => {
    const flow = startedFlow();
    const record = encodePendingFlow(flow, 'flow');
    const bytes = Buffer.byteLength(record);
    assert.ok(bytes <= COMPACT_RECORD_BYTES, `${bytes} bytes`);
    // The whole flow's JSON, as every start was kept before: the compact record is a good part smaller.
    assert.ok(bytes < Buffer.byteLength(JSON.stringify(flow)) * 0.8, `${bytes} bytes`);
  });

  it('reads back exactly the flow newFlow made, for every shape of request a start can have', () => {
    const shapes: Flow[] = [
      startedFlow(),
      startedFlow(
        { email: undefined, blockedCountries: undefined, firstParty: true },
        { loginHint: undefined },
      ),
      startedFlow(
        {},
        {
          state: undefined,
          nonce: undefined,
          codeChallenge: undefined,
          codeChallengeMethod: undefined,
          uiLocales: [],
          scope: ['openid'],
        },
      ),
      startedFlow(
        {},
        {
          prompt: 'login consent',
          maxAge: 0,
          acrValues: ['ts.svc.iac.phone_number', 'urn:x'],
          dpopJkt: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
          customMessage: 'Sign in to approve the payment',
          auxLink: { url: 'https://rp.example/help', title: 'Help' },
          boundTo: { type: 'sub', value: 'user-1' },
          claims: {
            approval: { display_data: { attributes: [{ label: 'To', value: 'Bob', icon: 'Payment' }] } },
            idToken: ['email'],
          },
        },
      ),
      // A list value that a space-separated string could not hold is kept as a list.
      startedFlow({}, { scope: ['openid', ''] }),
    ];
    for (const flow of shapes) {
      const read = decodePendingFlow(flow.id, encodePendingFlow(flow, 'flow'));
      assert.deepEqual(read, { flow: asStored(flow), pool: 'flow' });
    }
  });

  it('keeps a flow of another shape whole, still pending; a confirmed flow is no pending record', () => {
    const later = startedFlow({ step: 'email_code', canCreatePasskey: true });
    assert.deepEqual(decodePendingFlow(later.id, encodePendingFlow(later, 'flow-large')), {
      flow: asStored(later),
      pool: 'flow-large',
    });
    assert.equal(decodePendingFlow(later.id, JSON.stringify(later)), undefined);
  });

  it('the store keeps a start pending: read back marked, and whole (unmarked) once the person identified', async () => {
    const kv = new MemoryKeyValueStore();
    const flows = new FlowStore(kv, {
      ttlMs: 600_000,
      perTenantMax: 10,
      max: 10,
      perIpMax: 0,
      ipWindowMs: 600_000,
      now: () => 1_780_000_000_000,
    });
    const flow = startedFlow();
    await flows.createPending(flow);
    const raw = (await kv.get(`flow:${flow.id}`)) ?? '';
    assert.ok(Buffer.byteLength(raw) <= COMPACT_RECORD_BYTES, `${Buffer.byteLength(raw)} bytes stored`);
    const read = await flows.get(flow.id);
    assert.equal(read?.[PENDING], 'flow');
    assert.deepEqual({ ...read }, { ...asStored(flow), [PENDING]: 'flow' });
    assert.equal(await flows.save({ ...read!, step: 'email_code' }), true);
    const identified = await flows.get(flow.id);
    assert.equal(identified?.[PENDING], undefined);
    assert.deepEqual(identified, { ...asStored(flow), step: 'email_code' });
    await kv.close();
  });
});
