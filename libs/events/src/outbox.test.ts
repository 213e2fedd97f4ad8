import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from '@jest/globals';
import { Outbox, type OutboxRecord } from './outbox';

const rec = (i: number, key = `k${i % 3}`): OutboxRecord => ({
  topic: i % 2 ? 'odd' : 'even',
  key,
  value: Buffer.from([i & 0xff, 0, 0xff, 10, 13]),
  headers: { n: String(i), 'x-ünï': 'cödé\n' },
});
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => rec(from + i));

describe('Outbox', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sesame-outbox-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gives back appended records in order, byte for byte', async () => {
    const box = await Outbox.open(dir, 'bus');
    await box.append(range(0, 3));
    await box.append(range(3, 10));
    assert.equal(box.size(), 10);
    assert.deepEqual(box.peek(100), range(0, 10));
    assert.deepEqual(box.peek(4), range(0, 4));
    assert.equal(box.peek(100, 1).length, 1, 'a byte limit still yields one record');
    await box.close();
  });

  it('survives a reopen, keeping only what was not acknowledged', async () => {
    const box = await Outbox.open(dir, 'bus');
    await box.append(range(0, 10));
    await box.ack(4);
    assert.deepEqual(box.peek(100), range(4, 10));
    await box.close();

    const again = await Outbox.open(dir, 'bus');
    assert.equal(again.size(), 6);
    assert.deepEqual(again.peek(100), range(4, 10));
    await again.append(range(10, 12));
    await again.close();
    const third = await Outbox.open(dir, 'bus');
    assert.deepEqual(third.peek(100), range(4, 12));
    await third.close();
  });

  it('starts a fresh empty log once everything is acknowledged', async () => {
    const box = await Outbox.open(dir, 'bus');
    await box.append(range(0, 5));
    await box.ack(5);
    assert.equal(box.size(), 0);
    const logs = (await readdir(dir)).filter((f) => f.endsWith('.log'));
    assert.equal(logs.length, 1);
    assert.equal((await readFile(join(dir, logs[0]!))).length, 0);
    await box.append(range(5, 7));
    await box.close();
    const again = await Outbox.open(dir, 'bus');
    assert.deepEqual(again.peek(100), range(5, 7));
    await again.close();
  });

  it('compacts a mostly acknowledged log into a new one', async () => {
    const box = await Outbox.open(dir, 'bus', { compactBytes: 500 });
    await box.append(range(0, 40));
    const logBefore = (await readdir(dir)).find((f) => f.endsWith('.log'))!;
    const sizeBefore = (await readFile(join(dir, logBefore))).length;
    await box.ack(30);
    const logAfter = (await readdir(dir)).filter((f) => f.endsWith('.log'));
    assert.equal(logAfter.length, 1);
    assert.notEqual(logAfter[0], logBefore);
    assert.ok((await readFile(join(dir, logAfter[0]!))).length < sizeBefore / 2);
    await box.append(range(40, 45));
    await box.ack(5);
    assert.deepEqual(box.peek(100), range(35, 45));
    await box.close();
    const again = await Outbox.open(dir, 'bus');
    assert.deepEqual(again.peek(100), range(35, 45));
    await again.close();
  });

  it('drops a torn last line left by a crash mid-append', async () => {
    const box = await Outbox.open(dir, 'bus');
    await box.append(range(0, 3));
    const log = (await readdir(dir)).find((f) => f.endsWith('.log'))!;
    await box.close();
    await appendFile(join(dir, log), '{"t":"even","k":"k0","h":{},"v":"AAE');
    const again = await Outbox.open(dir, 'bus');
    assert.deepEqual(again.peek(100), range(0, 3));
    await again.append(range(3, 4));
    await again.close();
    const third = await Outbox.open(dir, 'bus');
    assert.deepEqual(third.peek(100), range(0, 4));
    await third.close();
  });

  it('ignores leftovers of an interrupted rewrite', async () => {
    const box = await Outbox.open(dir, 'bus');
    await box.append(range(0, 3));
    await box.close();
    const log = (await readdir(dir)).find((f) => f.endsWith('.log'))!;
    const gen = Number(log.split('.')[1]);
    await appendFile(
      join(dir, `bus.${gen + 1}.log`),
      `${JSON.stringify({ t: 'x', k: 'y', h: {}, v: '' })}\n`,
    );
    const again = await Outbox.open(dir, 'bus');
    assert.deepEqual(again.peek(100), range(0, 3));
    assert.deepEqual(
      // Spread: readdir hands out an array of Node's realm, and deepEqual compares prototypes (Jest runs tests in a vm).
      [...(await readdir(dir))].filter((f) => f.endsWith('.log')),
      [log],
    );
    await again.close();
  });

  it('refuses a second open of the same outbox while the first is open', async () => {
    const box = await Outbox.open(dir, 'bus');
    await assert.rejects(Outbox.open(dir, 'bus'), /already open/);
    const other = await Outbox.open(dir, 'other-bus');
    await other.close();
    await box.close();
    const again = await Outbox.open(dir, 'bus');
    await again.close();
  });

  it('moves a record the broker refuses to the .rejected file', async () => {
    const box = await Outbox.open(dir, 'bus');
    await box.append(range(0, 2));
    await box.reject('MESSAGE_TOO_LARGE');
    assert.deepEqual(box.peek(100), range(1, 2));
    const rejected = (await readFile(join(dir, 'bus.rejected'), 'utf8')).trim().split('\n');
    assert.equal(rejected.length, 1);
    assert.equal(JSON.parse(rejected[0]!).reason, 'MESSAGE_TOO_LARGE');
    await box.close();
  });

  it('keeps appends and acks consistent when they interleave', async () => {
    const box = await Outbox.open(dir, 'bus', { compactBytes: 200 });
    const work: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      work.push(box.append([rec(i)]));
      if (i % 3 === 2) work.push(box.ack(2));
    }
    await Promise.all(work);
    const expected = range(0, 50).slice(32);
    assert.deepEqual(box.peek(100), expected);
    await box.close();
    const again = await Outbox.open(dir, 'bus');
    assert.deepEqual(again.peek(100), expected);
    await again.close();
  });
});
