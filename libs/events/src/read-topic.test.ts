import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus } from './memory';
import type { DeliveredEvent, PartitionOffset } from './port';
import { TopicProgress, readTopicToEnd } from './read-topic';

const event = (topic: string, partition: number, offset: number): DeliveredEvent => ({
  topic,
  partition,
  offset: String(offset),
  key: 'k',
  value: Buffer.from('v'),
  headers: {},
  timestamp: 0,
});
const ends = (...offsets: number[]): PartitionOffset[] =>
  offsets.map((offset, partition) => ({ partition, offset: String(offset) }));

describe('TopicProgress', () => {
  it('is done only when every partition was handled up to its end', async () => {
    const progress = new TopicProgress('t', ends(2, 0, 1));
    assert.equal(progress.done(), false);
    const reached = progress.reached(5_000);
    progress.record([event('t', 0, 0), event('t', 0, 1)]);
    assert.equal(progress.done(), false, 'partition 2 is still behind');
    progress.record([event('other', 2, 0)]);
    assert.equal(progress.done(), false, 'an event of another topic does not count');
    progress.record([event('t', 2, 0)]);
    assert.equal(progress.done(), true);
    await reached;
  });

  it('an empty topic is read to its end at once', async () => {
    await new TopicProgress('t', ends(0, 0, 0)).reached(0);
  });

  it('rejects after the timeout, naming each partition position and end', async () => {
    const progress = new TopicProgress('t', ends(2, 1));
    progress.record([event('t', 0, 0), event('t', 1, 0)]);
    await assert.rejects(progress.reached(50), /t not read to its end within 50 ms: 0: 1\/2, 1: 1\/1/);
  });

  it('beforeEnd tells events published before the ends were taken from later ones', () => {
    const progress = new TopicProgress('t', ends(2, 0));
    assert.equal(progress.beforeEnd(event('t', 0, 1)), true);
    assert.equal(progress.beforeEnd(event('t', 0, 2)), false);
    assert.equal(progress.beforeEnd(event('t', 1, 0)), false);
    assert.equal(progress.beforeEnd(event('other', 0, 0)), false);
  });
});

describe('readTopicToEnd', () => {
  it('rejects when the reader cannot reach the end (it never returns a partial read)', async () => {
    const bus = new MemoryEventBus();
    await bus.publisher.publish('t', [{ key: 'k', value: Buffer.from('only') }]);
    // The broker claims more than the reader can ever get.
    bus.endOffsets = async () => ends(5, 5, 5);
    await assert.rejects(readTopicToEnd(bus, 't', { timeoutMs: 300 }), /t not read to its end within 300 ms/);
    await bus.close();
  });
});
