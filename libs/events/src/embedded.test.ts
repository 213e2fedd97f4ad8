import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import type { EmbeddedStore } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { eventually, killAtRandom } from '@sesame/testing';
import { eventBusContract } from './contract';
import { EmbeddedEventBus, createEmbeddedEventBus } from './embedded';
import type { DeliveredEvent, EventBus } from './port';
import { flowControlContract } from './testing/flow-control';

const engines = tempEngines('events');
const open = engines.open;
const tempDir = engines.dir;

eventBusContract('embedded', async () => createEmbeddedEventBus(open()));

describe('EmbeddedEventBus flow control', () => {
  flowControlContract(async (maxConsumerLag, publishWaitMaxMs) =>
    createEmbeddedEventBus(open(), { maxConsumerLag, publishWaitMaxMs }),
  );
});

const enc = (s: string) => Buffer.from(s);
const text = (events: DeliveredEvent[]) => events.map((e) => Buffer.from(e.value).toString());
const outboxSize = (engine: EmbeddedStore) =>
  engine.db.prepare('SELECT count(*) FROM events_outbox').pluck().get() as number;

/** Starts a consumer of `groupId` on `topic` that collects what it is given; `fail` makes its handler throw. */
async function collect(bus: EventBus, groupId: string, topic: string, opts: { ephemeral?: boolean } = {}) {
  const seen: DeliveredEvent[] = [];
  const consumer = bus.consumer({ groupId, topics: [topic], ...opts });
  await consumer.start(async (batch) => void seen.push(...batch));
  return { seen, consumer };
}

describe('the embedded event bus (durable outbox on the engine)', () => {
  it('an event published and not yet consumed when the engine closes is delivered after reopening, with its key, headers and time', async () => {
    const dir = tempDir();
    let engine = open(dir);
    let bus = createEmbeddedEventBus(engine);
    await bus.publisher.publish('flow-events', [
      { key: 'flow-1', value: enc('first'), headers: { type: 'auth_start' } },
      { key: 'flow-1', value: enc('second') },
    ]);
    assert.equal(outboxSize(engine), 2, 'on disk before publish resolved');
    await bus.close();
    engine.close();

    engine = open(dir);
    bus = createEmbeddedEventBus(engine);
    const { seen, consumer } = await collect(bus, 'activity-log.flow-events', 'flow-events');
    await eventually(
      async () => seen.length,
      (n) => n >= 2,
      10_000,
    );
    await consumer.stop();
    assert.deepEqual(text(seen), ['first', 'second']);
    assert.deepEqual(
      seen.map((e) => [e.key, e.headers]),
      [
        ['flow-1', { type: 'auth_start' }],
        ['flow-1', {}],
      ],
    );
    assert.ok(seen.every((e) => e.timestamp <= Date.now() && e.timestamp > Date.now() - 60_000));
    assert.equal(
      await eventually(
        async () => outboxSize(engine),
        (n) => n === 0,
        10_000,
      ),
      0,
      'acknowledged by its only group: gone from the outbox (with the next write)',
    );
    await bus.close();
  });

  it('an acknowledgement costs no commit of its own: it is deleted with the next write, or after a short wait when nothing writes', async () => {
    const engine = open();
    const bus = createEmbeddedEventBus(engine);
    const topicOf = () =>
      Array.from(engine.db.prepare('SELECT topic FROM events_outbox ORDER BY seq').pluck().all() as string[]);
    const reader = await collect(bus, 'reader', 't');
    await bus.publisher.publish('t', [{ key: 'k', value: enc('e1') }]);
    await eventually(
      async () => reader.seen.length,
      (n) => n >= 1,
      10_000,
    );
    // The consumer has committed its batch (in the turn after its handler): no engine commit was started for it.
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(topicOf(), ['t'], 'acknowledged but not yet deleted: no commit of its own');
    // The next write on the engine (another publish) takes the deletion along in its transaction.
    await bus.publisher.publish('unread', [{ key: 'k', value: enc('e2') }]);
    assert.deepEqual(topicOf(), ['unread'], 'deleted in the same transaction as the next publish');

    // Nothing else writes: the deletion is written on its own after a short wait.
    await bus.publisher.publish('t', [{ key: 'k', value: enc('e3') }]);
    await eventually(
      async () => reader.seen.length,
      (n) => n >= 2,
      10_000,
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(topicOf(), ['unread', 't']);
    assert.deepEqual(
      await eventually(
        async () => topicOf(),
        (rows) => rows.length === 1,
        5_000,
      ),
      ['unread'],
    );
    await reader.consumer.stop();
    await bus.close();
  });

  it('keeps an event until every durable group acknowledged it; an ephemeral group holds nothing', async () => {
    const engine = open();
    const bus = createEmbeddedEventBus(engine);
    const a = await collect(bus, 'a', 't');
    const evictor = await collect(bus, 'evictor', 't', { ephemeral: true });
    let failB = true;
    const b = bus.consumer({ groupId: 'b', topics: ['t'] });
    const seenB: string[] = [];
    await b.start(async (batch) => {
      if (failB) throw new Error('b is down');
      seenB.push(...text(batch));
    });
    await bus.publisher.publish('t', [{ key: 'k', value: enc('e1') }]);
    assert.equal(
      await eventually(
        async () => a.seen.length + evictor.seen.length,
        (n) => n >= 2,
        10_000,
      ),
      2,
    );
    assert.equal(outboxSize(engine), 1, 'b has not acknowledged it');
    failB = false;
    await eventually(
      async () => seenB.length,
      (n) => n >= 1,
      10_000,
    );
    assert.equal(
      await eventually(
        async () => outboxSize(engine),
        (n) => n === 0,
        10_000,
      ),
      0,
    );
    await Promise.all([a.consumer.stop(), evictor.consumer.stop(), b.stop()]);
    await bus.close();
  });

  it('a group stopped before an event was published does not hold it: a group that started later reads and frees it', async () => {
    const engine = open();
    const bus = createEmbeddedEventBus(engine);
    const reader = await collect(bus, 'reader-1', 't');
    await reader.consumer.stop();
    await bus.publisher.publish('t', [{ key: 'k', value: enc('e1') }]);
    assert.equal(outboxSize(engine), 1, 'no group running: kept for the next one');
    const late = await collect(bus, 'activity-log', 't');
    assert.equal(
      await eventually(
        async () => outboxSize(engine),
        (n) => n === 0,
        10_000,
      ),
      0,
    );
    assert.deepEqual(text(late.seen), ['e1']);
    await late.consumer.stop();
    await bus.close();
  });

  it('a value that is a view into a larger buffer (as an encoder hands it out) is stored and delivered as its own bytes only', async () => {
    const dir = tempDir();
    let engine = open(dir);
    let bus = createEmbeddedEventBus(engine);
    const pool = Buffer.from('header-bytes|first-value|second-value|trailer');
    const view = (text: string) =>
      new Uint8Array(pool.buffer, pool.byteOffset + pool.indexOf(text), text.length);
    await bus.publisher.publish('t', [
      { key: 'k', value: view('first-value') },
      { key: 'k', value: view('second-value') },
    ]);
    await bus.close();
    engine.close();

    engine = open(dir);
    bus = createEmbeddedEventBus(engine);
    const { seen, consumer } = await collect(bus, 'g', 't');
    await eventually(
      async () => seen.length,
      (n) => n >= 2,
      10_000,
    );
    await consumer.stop();
    assert.deepEqual(text(seen), ['first-value', 'second-value']);
    await bus.close();
  });

  it('a turn in which another writer fails stores the publish once, in the second pass, and delivers it once', async () => {
    const engine = open();
    engine.db.exec('CREATE TABLE other (k TEXT PRIMARY KEY) STRICT');
    const put = engine.db.prepare<[string]>('INSERT INTO other (k) VALUES (?)');
    await engine.inTurn(() => put.run('taken'));
    const bus = createEmbeddedEventBus(engine);
    const [published, failing] = await Promise.allSettled([
      bus.publisher.publish('t', [
        { key: 'k', value: enc('one') },
        { key: 'k', value: enc('two') },
      ]),
      engine.inTurn(() => put.run('taken')),
    ]);
    assert.equal(published.status, 'fulfilled');
    assert.equal(failing.status, 'rejected');
    assert.equal(outboxSize(engine), 2);
    const { seen, consumer } = await collect(bus, 'g', 't');
    await eventually(
      async () => seen.length,
      (n) => n >= 2,
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await consumer.stop();
    assert.deepEqual(text(seen), ['one', 'two']);
    await bus.close();
  });

  it('events acknowledged before a restart are not delivered again after it; the rest are, in order', async () => {
    const dir = tempDir();
    let engine = open(dir);
    let bus = createEmbeddedEventBus(engine);
    const first = await collect(bus, 'g', 't');
    await bus.publisher.publish('t', [{ key: 'k', value: enc('acked') }]);
    await eventually(
      async () => first.seen.length,
      (n) => n >= 1,
      10_000,
    );
    await first.consumer.stop();
    await bus.publisher.publish(
      't',
      [1, 2, 3].map((i) => ({ key: 'k', value: enc(`later-${i}`) })),
    );
    await bus.close();
    engine.close();

    engine = open(dir);
    bus = createEmbeddedEventBus(engine);
    const second = await collect(bus, 'g', 't');
    await eventually(
      async () => second.seen.length,
      (n) => n >= 3,
      10_000,
    );
    await second.consumer.stop();
    assert.deepEqual(text(second.seen), ['later-1', 'later-2', 'later-3']);
    await bus.close();
  });

  it('kill -9 at random points while publishing and consuming loses no event whose publish resolved (5 kills)', async () => {
    const dir = tempDir();
    const publisher = fileURLToPath(new URL('./testing/embedded-publisher.ts', import.meta.url));
    const answered = await killAtRandom({
      script: publisher,
      dir,
      rounds: 5,
      killAfter: { min: 50, spread: 400 },
      child: 'the publisher',
      unit: 'events',
    });
    const engine = open(dir);
    const consumedBefore = new Set(
      engine.db.prepare('SELECT value FROM test_consumed').pluck().all() as string[],
    );
    const bus = createEmbeddedEventBus(engine);
    const pending = outboxSize(engine);
    assert.ok(pending > 0, 'the kills left events published and not yet consumed');
    const again = await collect(bus, 'durable', 't');
    const delivered = await eventually(
      async () => again.seen.length,
      (n) => n >= pending,
      30_000,
    );
    await again.consumer.stop();
    assert.equal(delivered, pending, 'the outbox is delivered again');
    const redelivered = new Set(text(again.seen));
    assert.deepEqual(
      answered.filter((v) => !consumedBefore.has(v) && !redelivered.has(v)),
      [],
      'every answered event was consumed before a kill or is delivered after',
    );
    await bus.close();
  }, 120_000);

  it('deletes an event no durable group owes once it is older than the unclaimed retention; an owed one stays', async () => {
    const dir = tempDir();
    let engine = open(dir);
    let bus = new EmbeddedEventBus(engine, { unclaimedRetentionMs: 60_000 });
    await bus.publisher.publish('dead-letters', [{ key: 'k', value: enc('nobody reads it') }]);
    await bus.publisher.publish('t', [{ key: 'k', value: enc('owed') }]);
    await bus.close();
    engine.close();

    engine = open(dir);
    bus = new EmbeddedEventBus(engine, { unclaimedRetentionMs: 60_000 });
    let failing = true;
    const owing = bus.consumer({ groupId: 'g', topics: ['t'] });
    await owing.start(async () => {
      if (failing) throw new Error('down');
    });
    assert.equal(bus.sweep(Date.now() + 30_000), 0, 'younger than the retention: kept');
    assert.equal(bus.sweep(Date.now() + 120_000), 1, 'only the unowed one goes');
    assert.equal(
      await eventually(
        async () => outboxSize(engine),
        (n) => n === 1,
        10_000,
      ),
      1,
    );
    failing = false;
    await owing.stop();
    await bus.close();
  });
});
