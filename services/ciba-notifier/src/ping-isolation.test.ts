import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { MemoryKeyValueStore } from '@sesame/kv';
import { events, topics } from '@sesame/proto';
import { Counter } from 'prom-client';
import { loadCibaNotifierConfig } from './config';
import { PingDispatcher } from './ping-dispatcher';
import { createCibaNotifierService } from './service';
import { listenLocally, silentLogger as logger, receivingEndpoint } from './testing/endpoints';

const outcome = (id: string, tenantId: string, endpoint: string) =>
  events.CibaOutcome.fromPartial({
    outcomeId: id,
    authReqId: `req-${id}`,
    tenantId,
    clientId: `client-${tenantId}`,
    kind: events.CibaOutcomeKind.CIBA_OUTCOME_KIND_COMPLETED,
    notificationEndpoint: endpoint,
    clientNotificationToken: 'tok',
    timestampMs: Date.now(),
  });

/** Issue 26 finding 3: a hanging endpoint held every tenant's pings (32 s in the review). */
describe('ciba-notifier isolates endpoints', () => {
  const hanging = createServer(() => {
    // never answers
  });
  const arrivals = new Map<string, number>();
  const healthy = receivingEndpoint((_req, body) => {
    arrivals.set(JSON.parse(body).auth_req_id, Date.now());
    return 204;
  });
  let hangingUrl = '';
  let healthyUrl = '';
  beforeAll(async () => {
    hangingUrl = `${await listenLocally(hanging)}/ping`;
    healthyUrl = `${await listenLocally(healthy)}/ping`;
  });
  afterAll(() => {
    hanging.closeAllConnections();
    hanging.close();
    healthy.close();
  });

  it("a hanging endpoint with 20 pings ahead costs another tenant's ping under 2 s", async () => {
    const bus = new MemoryEventBus();
    const mod = await createCibaNotifierService(
      loadCibaNotifierConfig({
        SESAME_ENV: 'test',
        SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: 'true',
        LOG_LEVEL: 'silent',
      }),
      { bus, logger },
    );
    await mod.start?.();
    try {
      const slow = Array.from({ length: 20 }, (_, i) => ({
        key: `a-${i}`,
        value: events.CibaOutcome.encode(outcome(`slow-${i}`, 'tenant-a', hangingUrl)).finish(),
      }));
      await bus.publisher.publish(topics.cibaOutcomes, slow);
      // The other tenant's ping comes in the next batch, once the hanging ones are being tried.
      await new Promise((r) => setTimeout(r, 100));
      const sent = Date.now();
      await bus.publisher.publish(topics.cibaOutcomes, [
        { key: 'b', value: events.CibaOutcome.encode(outcome('fast', 'tenant-b', healthyUrl)).finish() },
      ]);
      for (let waited = 0; !arrivals.has('req-fast') && waited < 5_000; waited += 10)
        await new Promise((r) => setTimeout(r, 10));
      const took = (arrivals.get('req-fast') ?? Number.POSITIVE_INFINITY) - sent;
      assert.ok(took < 2_000, `the other tenant's ping took ${took} ms`);
    } finally {
      await mod.stop?.();
    }
  });

  it('commits without waiting for delivery; a ping accepted by a notifier that died is sent by another', async () => {
    const kv = new MemoryKeyValueStore();
    const results = new Counter({
      name: 'test_pings_total',
      help: 'h',
      labelNames: ['result'] as const,
      registers: [],
    });
    const opts = {
      ping: { attempts: 2, backoffMs: 1, timeoutMs: 1_000, policy: { allowHttp: true, allowLoopback: true } },
      concurrencyPerEndpoint: 2,
      maxWaitingPerEndpoint: 10,
      reclaimAfterMs: 0,
    };
    const dead = new PingDispatcher(kv, logger, results, opts);
    await dead.stop(); // as if it crashed right after accept made the ping durable (and Kafka committed)
    await dead.accept(outcome('orphan', 'tenant-c', healthyUrl));
    assert.equal(arrivals.has('req-orphan'), false, 'the dead notifier sent nothing');
    const successor = new PingDispatcher(kv, logger, results, opts);
    await successor.sweep();
    for (let waited = 0; !arrivals.has('req-orphan') && waited < 2_000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    assert.ok(arrivals.has('req-orphan'), 'the successor delivered it');
    await successor.stop();
    assert.deepEqual(await kv.due('ciba-pings:pending', Date.now(), 10), [], 'nothing left pending');
  });
});
