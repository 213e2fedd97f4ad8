import assert from 'node:assert/strict';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { createLogger } from '@sesame/platform';
import { events, topics } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { loadCibaNotifierConfig } from './config';
import { createCibaNotifierService } from './service';

interface Ping {
  authorization?: string;
  contentType?: string;
  body: string;
}

describe('ciba-notifier', () => {
  const pings: Ping[] = [];
  let failNext = 0;
  let endpoint = '';
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      pings.push({
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      if (failNext > 0) {
        failNext--;
        res.writeHead(503).end();
      } else res.writeHead(204).end();
    });
  });
  const bus = new MemoryEventBus();
  let stop: () => Promise<void>;

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ciba/ping`;
    const mod = await createCibaNotifierService(loadCibaNotifierConfig({ CIBA_PING_BACKOFF_MS: '1' }), {
      bus,
      logger: createLogger({ service: 'ciba-notifier', level: 'silent' }),
    });
    await mod.start?.();
    stop = mod.stop;
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
    await eventually(
      async () => pings.length,
      (n) => n >= 1,
    );
    assert.deepEqual(pings, [
      { authorization: 'Bearer tok-1', contentType: 'application/json', body: '{"auth_req_id":"req-o1"}' },
    ]);
  });

  it('retries a refused ping with backoff until the endpoint accepts it', async () => {
    pings.length = 0;
    failNext = 2;
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'b', value: outcome('o2') }]);
    await eventually(
      async () => pings.length,
      (n) => n >= 3,
    );
    assert.equal(pings.length, 3);
    assert.ok(pings.every((p) => p.body === '{"auth_req_id":"req-o2"}'));
  });

  it('does not ping again when the same outcome is redelivered', async () => {
    pings.length = 0;
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'c', value: outcome('o3') }]);
    await eventually(
      async () => pings.length,
      (n) => n >= 1,
    );
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'c', value: outcome('o3') }]);
    await bus.publisher.publish(topics.cibaOutcomes, [{ key: 'd', value: outcome('o4') }]);
    await eventually(
      async () => pings.length,
      (n) => n >= 2,
    );
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      pings.map((p) => p.body),
      ['{"auth_req_id":"req-o3"}', '{"auth_req_id":"req-o4"}'],
    );
  });
});
