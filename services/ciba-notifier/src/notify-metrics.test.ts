import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { createLogger, createMetrics } from '@sesame/platform';
import { events } from '@sesame/proto';
import { deliverPing } from './notify';

/** The value of one series on the exposition text a registry serves on /metrics (0 when absent). */
async function value(text: Promise<string>, series: string): Promise<number> {
  const line = (await text).split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('CIBA ping metrics', () => {
  const answers: number[] = [];
  const server = createServer((_req, res) => void res.writeHead(answers.shift() ?? 204).end());
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
  });
  afterAll(() => void server.close());

  const outcome = (id: string, kind: events.CibaOutcomeKind) =>
    events.CibaOutcome.fromPartial({
      outcomeId: id,
      authReqId: `req-${id}`,
      tenantId: 't',
      clientId: 'c',
      kind,
      notificationEndpoint: endpoint,
      clientNotificationToken: 'tok',
    });

  it('counts outcomes, each attempt by result, retries and latency, on the service registry', async () => {
    const { registry } = createMetrics('ciba-notifier', { defaultMetrics: false });
    const read = (series: string) => value(registry.metrics(), series);
    const series = {
      completed: 'sesame_ciba_outcomes_total{kind="completed",service="ciba-notifier"}',
      denied: 'sesame_ciba_outcomes_total{kind="denied",service="ciba-notifier"}',
      delivered: 'sesame_ciba_ping_attempts_total{result="delivered",service="ciba-notifier"}',
      refused: 'sesame_ciba_ping_attempts_total{result="refused",service="ciba-notifier"}',
      retries: 'sesame_ciba_ping_retries_total{service="ciba-notifier"}',
      timed: 'sesame_ciba_ping_duration_seconds_count{service="ciba-notifier",result="refused"}',
    };
    const before = Object.fromEntries(
      await Promise.all(Object.entries(series).map(async ([k, s]) => [k, await read(s)] as const)),
    );
    const kv = new MemoryKeyValueStore();
    const logger = createLogger({ service: 'test', level: 'silent' });
    const opts = {
      attempts: 3,
      backoffMs: 1,
      timeoutMs: 5000,
      sleep: async () => {},
      // The test endpoint is on loopback over http (SESAME_ALLOW_LOOPBACK_NOTIFICATIONS in a service).
      policy: { allowHttp: true, allowLoopback: true },
    };
    answers.push(503, 503);
    assert.equal(
      await deliverPing(outcome('o1', events.CibaOutcomeKind.CIBA_OUTCOME_KIND_COMPLETED), kv, logger, opts),
      'delivered',
    );
    answers.push(400);
    assert.equal(
      await deliverPing(outcome('o2', events.CibaOutcomeKind.CIBA_OUTCOME_KIND_DENIED), kv, logger, opts),
      'failed',
    );
    const after = Object.fromEntries(
      await Promise.all(Object.entries(series).map(async ([k, s]) => [k, await read(s)] as const)),
    );
    const delta = Object.fromEntries(Object.keys(series).map((k) => [k, after[k]! - before[k]!]));
    assert.deepEqual(delta, { completed: 1, denied: 1, delivered: 1, refused: 3, retries: 2, timed: 3 });
  });
});
