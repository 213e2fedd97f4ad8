import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import type { EnrollmentFlow, Flow, RegistrationFlow } from './flow';
import { EnrollmentFlows, FlowStore, RegistrationFlows } from './flow-store';

const settle = () => new Promise((r) => setTimeout(r, 20));

/** A flow alive for a minute, created in `store`, and how many times its watchers were woken so far. */
async function watchedFlow<F extends { id: string }>(store: {
  create(flow: F): Promise<boolean>;
  watch(id: string, listener: () => void): Promise<() => void>;
}) {
  const now = Date.now();
  const flow = { id: randomUUID(), createdAt: now, expiresAt: now + 60_000 } as unknown as F;
  await store.create(flow);
  let woken = 0;
  await store.watch(flow.id, () => {
    woken++;
  });
  return { flow, woken: () => woken };
}

/** Each store signals the changes a waiting status request (flow/flow-status.ts) must wake for. */
describe('flow stores signal their changes to watchers', () => {
  it('FlowStore: a save and a delete wake the watchers of that flow only; a save of a gone flow does not', async () => {
    const store = new FlowStore(new MemoryKeyValueStore());
    const now = Date.now();
    const flow = {
      id: randomUUID(),
      createdAt: now,
      expiresAt: now + 60_000,
      sessionKey: 'k',
    } as Flow;
    const other = { ...flow, id: randomUUID() };
    await store.create(flow);
    await store.create(other);
    const woken: string[] = [];
    const stop = await store.watch(flow.id, () => woken.push('flow'));
    await store.watch(other.id, () => woken.push('other'));
    await store.save(flow);
    await settle();
    assert.deepEqual(woken, ['flow']);
    await store.delete(flow.id);
    await settle();
    assert.deepEqual(woken, ['flow', 'flow']);
    assert.equal(await store.save(flow), false);
    await settle();
    assert.deepEqual(woken, ['flow', 'flow'], 'nothing changed: nobody woken');
    stop();
    await store.create(flow);
    await store.save(flow);
    await settle();
    assert.deepEqual(woken, ['flow', 'flow'], 'stopped watching');
  });

  it('EnrollmentFlows: a save and the take that ends it wake the watchers', async () => {
    const store = new EnrollmentFlows(new MemoryKeyValueStore());
    const { flow, woken } = await watchedFlow<EnrollmentFlow>(store);
    await store.save(flow);
    assert.equal(await store.take(flow.id), true);
    assert.equal(await store.take(flow.id), false);
    await settle();
    assert.equal(woken(), 2);
  });

  it('RegistrationFlows: a save wakes the watchers', async () => {
    const store = new RegistrationFlows(new MemoryKeyValueStore());
    const { flow, woken } = await watchedFlow<RegistrationFlow>(store);
    await store.save(flow);
    await settle();
    assert.equal(woken(), 1);
  });
});
