import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { events, topics } from '@sesame/proto';
import { listenLocally, receivingEndpoint, startNotifier, untilAtLeast } from './testing/endpoints';

interface Ping {
  authorization?: string;
  contentType?: string;
  body: string;
}

describe('ciba-notifier', () => {
  const pings: Ping[] = [];
  let failNext = 0;
  let endpoint = '';
  const server = receivingEndpoint((req, body) => {
    pings.push({
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
    });
    if (failNext > 0) {
      failNext--;
      return 503;
    }
    return 204;
  });
  const bus = new MemoryEventBus();
  let stop: () => Promise<void>;

  beforeAll(async () => {
    endpoint = `${await listenLocally(server)}/ciba/ping`;
    stop = await startNotifier(bus);
  });
  afterAll(async () => {
    await stop();
    server.close();
  });

  const outcome = (id: string, token = 'notif-token') =>
    events.CibaOutcome.encode({
      outcomeId: id,
      authReqId: `req-${id}`,
      tenantId: 't1',
      clientId: 'c1',
      kind: events.CibaOutcomeKind.CIBA_OUTCOME_KIND_COMPLETED,
      notificationEndpoint: endpoint,
      clientNotificationToken: token,
      timestampMs: Date.now(),
    }).finish();

  it('POSTs {"auth_req_id"} with the client_notification_token as bearer (CIBA Core ping)', async () => {
    pings.length = 0;
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'a', value: outcome('o1', 'tok-1') }]);
    await untilAtLeast(pings, 1);
    assert.deepEqual(pings, [
      { authorization: 'Bearer tok-1', contentType: 'application/json', body: '{"auth_req_id":"req-o1"}' },
    ]);
  });

  it('retries a refused ping with backoff until the endpoint accepts it', async () => {
    pings.length = 0;
    failNext = 2;
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'b', value: outcome('o2') }]);
    await untilAtLeast(pings, 3);
    assert.equal(pings.length, 3);
    assert.ok(pings.every((p) => p.body === '{"auth_req_id":"req-o2"}'));
  });

  it('does not ping again when the same outcome is redelivered', async () => {
    pings.length = 0;
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'c', value: outcome('o3') }]);
    await untilAtLeast(pings, 1);
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'c', value: outcome('o3') }]);
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'd', value: outcome('o4') }]);
    await untilAtLeast(pings, 2);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      pings.map((p) => p.body),
      ['{"auth_req_id":"req-o3"}', '{"auth_req_id":"req-o4"}'],
    );
  });
});
