import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { DeliveredEvent } from '@sesame/events';
import { createLogger } from '@sesame/platform';
import { events } from '@sesame/proto';
import { Counter, Registry } from 'prom-client';
import { decodedBatchHandler, dispatchingHandler } from './decoded-batch';

const delivered = (value: Buffer, offset: string): DeliveredEvent => ({
  topic: 't',
  partition: 0,
  offset,
  key: 'k',
  value,
  headers: {},
  timestamp: 0,
});

/** decodedBatchHandler over logout notices, counting into a results counter of its own. */
function logoutNoticesHandler(handle: (notice: events.LogoutNotice) => Promise<void>) {
  const results = new Counter({
    name: 'r',
    help: 'r',
    labelNames: ['result'],
    registers: [new Registry()],
  });
  const handler = decodedBatchHandler(
    events.LogoutNotice,
    'logout notice',
    { logger: createLogger({ service: 'test', level: 'silent' }), results },
    handle,
  );
  return { results, handler };
}

const encodedNotice = (token: string) =>
  Buffer.from(events.LogoutNotice.encode(events.LogoutNotice.fromPartial({ logoutToken: token })).finish());

describe('decodedBatchHandler', () => {
  it('skips and counts an undecodable event, hands every other one on, and resolves when all are handled', async () => {
    const handled: string[] = [];
    const { results, handler } = logoutNoticesHandler(async (notice) => {
      await new Promise((r) => setTimeout(r, 10));
      handled.push(notice.logoutToken);
    });
    await handler([
      delivered(encodedNotice('a'), '1'),
      delivered(Buffer.from([0xff, 0xff, 0xff]), '2'),
      delivered(encodedNotice('b'), '3'),
    ]);
    assert.deepEqual(handled.sort(), ['a', 'b']);
    assert.equal((await results.get()).values.find((v) => v.labels.result === 'undecodable')?.value, 1);
  });

  it('fails the batch when handing an event on fails (Kafka redelivers it)', async () => {
    const { handler } = logoutNoticesHandler(async () => {
      throw new Error('store down');
    });
    await assert.rejects(handler([delivered(encodedNotice('x'), '1')]), /store down/);
  });
  it('dispatchingHandler: accepts each event, except one `skipped` names, which is counted under that name', async () => {
    const results = new Counter({
      name: 'r3',
      help: 'r',
      labelNames: ['result'],
      registers: [new Registry()],
    });
    const accepted: string[] = [];
    const handler = dispatchingHandler(
      events.LogoutNotice,
      'logout notice',
      {
        dispatcher: { accept: async (n: events.LogoutNotice) => void accepted.push(n.logoutToken) },
        logger: createLogger({ service: 'test', level: 'silent' }),
        results,
      },
      (n) => (n.logoutToken === 'bad' ? 'incomplete' : undefined),
    );
    await handler([
      delivered(encodedNotice('a'), '1'),
      delivered(encodedNotice('bad'), '2'),
      delivered(encodedNotice('b'), '3'),
    ]);
    assert.deepEqual(accepted.sort(), ['a', 'b']);
    assert.equal((await results.get()).values.find((v) => v.labels.result === 'incomplete')?.value, 1);
  });
});
