import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { DeliveredEvent } from '@sesame/events';
import { createLogger } from '@sesame/platform';
import { events } from '@sesame/proto';
import { Counter, Registry } from 'prom-client';
import { decodedBatchHandler } from './decoded-batch';

const delivered = (value: Buffer, offset: string): DeliveredEvent => ({
  topic: 't',
  partition: 0,
  offset,
  key: 'k',
  value,
  headers: {},
  timestamp: 0,
});

describe('decodedBatchHandler', () => {
  it('skips and counts an undecodable event, hands every other one on, and resolves when all are handled', async () => {
    const results = new Counter({
      name: 'r',
      help: 'r',
      labelNames: ['result'],
      registers: [new Registry()],
    });
    const handled: string[] = [];
    const handler = decodedBatchHandler(
      (bytes) => events.LogoutNotice.decode(bytes),
      'logout notice',
      { logger: createLogger({ service: 'test', level: 'silent' }), results },
      async (notice) => {
        await new Promise((r) => setTimeout(r, 10));
        handled.push(notice.logoutToken);
      },
    );
    const good = (token: string) =>
      Buffer.from(
        events.LogoutNotice.encode(events.LogoutNotice.fromPartial({ logoutToken: token })).finish(),
      );
    await handler([
      delivered(good('a'), '1'),
      delivered(Buffer.from([0xff, 0xff, 0xff]), '2'),
      delivered(good('b'), '3'),
    ]);
    assert.deepEqual(handled.sort(), ['a', 'b']);
    assert.equal((await results.get()).values.find((v) => v.labels.result === 'undecodable')?.value, 1);
  });

  it('fails the batch when handing an event on fails (Kafka redelivers it)', async () => {
    const results = new Counter({
      name: 'r2',
      help: 'r',
      labelNames: ['result'],
      registers: [new Registry()],
    });
    const handler = decodedBatchHandler(
      (bytes) => events.LogoutNotice.decode(bytes),
      'logout notice',
      { logger: createLogger({ service: 'test', level: 'silent' }), results },
      async () => {
        throw new Error('store down');
      },
    );
    const good = Buffer.from(
      events.LogoutNotice.encode(events.LogoutNotice.fromPartial({ logoutToken: 'x' })).finish(),
    );
    await assert.rejects(handler([delivered(good, '1')]), /store down/);
  });
});
