import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import pino from 'pino';
import { MemoryEventBus } from './memory';
import { Outbox } from './outbox';
import { OutboxAdoption } from './outbox-adoption';

const logger = pino({ level: 'silent' });
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function leftBehind(shared: string, pod: string, values: string[], leaseAgeMs: number): Promise<void> {
  const dir = join(shared, pod);
  const box = await Outbox.open(dir, 'sesame-token');
  await box.append(values.map((v) => ({ topic: 't', key: 'k', value: Buffer.from(v), headers: { v } })));
  await box.close();
  const old = new Date(Date.now() - leaseAgeMs);
  await writeFile(join(dir, 'lease'), pod);
  await utimes(join(dir, 'lease'), old, old);
}

describe('OutboxAdoption', () => {
  it("republishes, in order, the outbox of a pod whose lease lapsed, and removes it; a live pod's is left alone", async () => {
    const shared = await mkdtemp(join(tmpdir(), 'sesame-shared-outbox-'));
    dirs.push(shared);
    await leftBehind(shared, 'token-gone', ['a', 'b', 'c'], 60_000);
    await leftBehind(shared, 'token-alive', ['x'], 0);
    const bus = new MemoryEventBus();
    const got: string[] = [];
    const consumer = bus.consumer({ groupId: 'g', topics: ['t'] });
    await consumer.start(async (batch) => {
      got.push(...batch.map((e) => e.value.toString()));
    });
    const adoption = new OutboxAdoption({
      sharedDir: shared,
      own: 'token-new',
      outboxName: 'sesame-token',
      leaseMs: 10_000,
      publisher: bus.publisher,
      logger,
    });
    assert.equal(await adoption.adoptOnce(), 3);
    await bus.publisher.flush();
    assert.deepEqual(got, ['a', 'b', 'c']);
    assert.deepEqual([...(await readdir(shared))].sort(), ['token-alive', 'token-new']);
    await adoption.stop();
    await consumer.stop();
    await bus.close();
  });
});
