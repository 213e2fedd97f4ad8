// Test support only: the pending sign-ins of FlowStore (issue 42), run against the memory, embedded and Redis KV.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import type { KeyValueStore } from '@sesame/kv';
import { type Flow, PENDING } from './flow';
import { FlowStore, type PendingFlowRules } from './flow-store';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A start as newFlow makes it, in `tenantId`, from `clientIp`. */
function started(tenantId: string, clientIp = '198.51.100.1', request: Partial<Flow['request']> = {}): Flow {
  const now = Date.now();
  return {
    id: randomUUID(),
    tenantId,
    appId: 'app-1',
    clientId: 'client-1',
    appName: 'App',
    sessionKey: randomUUID(),
    request: {
      clientId: 'client-1',
      redirectUri: 'https://rp.example/cb',
      scope: ['openid'],
      state: 's',
      acrValues: [],
      uiLocales: [],
      ...request,
    },
    locale: 'en',
    createdAt: now,
    expiresAt: now + 1_800_000,
    step: 'identify',
    clientIp,
    originatingDevice: {
      deviceId: randomUUID(),
      facts: {
        deviceName: 'Mac',
        osType: 'macOS',
        osVersion: '14',
        browserType: 'Firefox',
        browserVersion: '133',
      },
    },
  };
}

/** FlowStore's pending rules on one KV adapter: caps and eviction, the short life, the per-IP allowance. */
export function pendingFlowsContract(adapter: string, make: () => KeyValueStore): void {
  describe(`pending sign-ins on ${adapter}`, () => {
    const kv = make();
    afterAll(() => kv.close());
    const store = (rules: Partial<PendingFlowRules> = {}) =>
      new FlowStore(kv, {
        ttlMs: 60_000,
        perTenantMax: 3,
        max: 5,
        perIpMax: 0,
        ipWindowMs: 60_000,
        ...rules,
      });
    const tenant = () => `tenant-${randomUUID()}`;
    /** Starts `n` flows in `tenantId`, 3 ms apart, oldest first. */
    async function startAll(flows: FlowStore, tenantId: string, n: number) {
      const made: Flow[] = [];
      for (let i = 0; i < n; i++) {
        const flow = started(tenantId);
        await flows.createPending(flow);
        made.push(flow);
        await sleep(3);
      }
      return made;
    }
    const alive = async (flows: FlowStore, made: Flow[]) =>
      Promise.all(made.map(async (f) => (await flows.get(f.id)) !== undefined));

    it('a tenant past its cap loses its oldest untouched starts; the person who typed an address stays', async () => {
      const flows = store({ max: 1_000 });
      const t = tenant();
      const [person] = await startAll(flows, t, 1);
      const read = (await flows.get(person!.id))!;
      assert.equal(read[PENDING], 'flow');
      assert.equal(await flows.save({ ...read, email: 'a@example.com', step: 'email_code' }), true);
      const flood = await startAll(flows, t, 6);
      assert.deepEqual(await alive(flows, flood), [false, false, false, true, true, true]);
      const kept = await flows.get(person!.id);
      assert.equal(kept?.step, 'email_code');
      assert.equal(kept?.[PENDING], undefined);
      const ttl = (await kv.ttlMs(`flow:${person!.id}`)) ?? 0;
      assert.ok(ttl > 1_700_000, `the identified flow lives its whole life: ${ttl} ms`);
    });

    it('the total cap evicts across tenants, oldest first', async () => {
      const flows = store({ perTenantMax: 100, max: 3 });
      const a = await startAll(flows, tenant(), 2);
      const b = await startAll(flows, tenant(), 2);
      assert.deepEqual(await alive(flows, [...a, ...b]), [false, true, true, true]);
    });

    it('a save that does not identify keeps the flow pending (still evicted by a flood); an evicted one cannot be saved', async () => {
      const flows = store({ perTenantMax: 2 });
      const t = tenant();
      const [clicked] = await startAll(flows, t, 1);
      const read = (await flows.get(clicked!.id))!;
      assert.equal(await flows.save({ ...read, step: 'qr' }), true, 'a click without an address');
      const still = (await flows.get(clicked!.id))!;
      assert.equal(still[PENDING], 'flow');
      assert.equal(still.step, 'qr');
      await startAll(flows, t, 2);
      assert.equal(await flows.get(clicked!.id), undefined);
      assert.equal(await flows.save({ ...still, email: 'late@example.com', step: 'email_code' }), false);
      assert.equal(await flows.get(clicked!.id), undefined, 'an evicted flow is not brought back');
    });

    it('an untouched start lives the pending TTL only', async () => {
      const flows = store({ ttlMs: 150 });
      const [flow] = await startAll(flows, tenant(), 1);
      assert.ok(await flows.get(flow!.id));
      await sleep(300);
      assert.equal(await flows.get(flow!.id), undefined);
    });

    it('a record over 1 KiB counts in the large pool, whose cap is a sixteenth', async () => {
      const flows = store({ perTenantMax: 32, max: 1_000 });
      const t = tenant();
      const large: Flow[] = [];
      for (let i = 0; i < 3; i++) {
        const flow = started(t, '198.51.100.1', { state: 'x'.repeat(2_000) });
        await flows.createPending(flow);
        assert.equal(flow[PENDING], 'flow-large');
        large.push(flow);
        await sleep(3);
      }
      const small = await startAll(flows, t, 3);
      assert.deepEqual(await alive(flows, large), [false, true, true], 'a large pool of 2 per tenant');
      assert.deepEqual(await alive(flows, small), [true, true, true]);
      assert.equal((await flows.get(large[2]!.id))?.request.state, 'x'.repeat(2_000));
    });

    it('the per-IP allowance refuses past its count with the time left, and gives a place back for a mail sent', async () => {
      const flows = store({ perIpMax: 2, max: 1_000, perTenantMax: 1_000 });
      const ip = `203.0.113.${Math.floor(Math.random() * 200)}-${randomUUID()}`;
      assert.equal(await flows.admitStart(ip), undefined);
      assert.equal(await flows.admitStart(ip), undefined);
      const refused = await flows.admitStart(ip);
      assert.ok(refused && refused.retryAfterS > 55 && refused.retryAfterS <= 60, JSON.stringify(refused));
      assert.equal(await flows.admitStart(`${ip}-other`), undefined);
      const flow = started(tenant(), ip);
      await flows.createPending(flow);
      assert.equal(await flows.save({ ...flow, email: 'b@example.com', step: 'email_code' }), true);
      assert.equal(await flows.admitStart(ip), undefined, 'the mail gave one place back');
      assert.ok(await flows.admitStart(ip));
    });

    it('a discarded start (prompt none ended) gives its place back once; a proven one gave it back when saved', async () => {
      const flows = store({ perIpMax: 1, max: 1_000, perTenantMax: 1_000 });
      const ip = `198.51.100.${Math.floor(Math.random() * 200)}-${randomUUID()}`;
      assert.equal(await flows.admitStart(ip), undefined);
      const silent = started(tenant(), ip);
      await flows.createPending(silent);
      await flows.discard(silent);
      await flows.discard(silent);
      assert.equal(await flows.get(silent.id), undefined);
      assert.equal(await flows.admitStart(ip), undefined, 'the discard gave the place back');
      const proven = started(tenant(), ip);
      await flows.createPending(proven);
      assert.equal(await flows.save({ ...proven, proof: { method: 'email_otp', at: 1 } } as Flow), true);
      await flows.discard(proven);
      assert.equal(await flows.admitStart(ip), undefined, 'the save gave it back');
      assert.ok(await flows.admitStart(ip), 'and the discard did not give a second one');
    });
  });
}
