// Broker loss (npm run test:ha, after the contract): kill -9 the broker that leads a partition while events are
// published and consumed without pause, keep going on two brokers, bring it back. Every acknowledged event reaches
// the consumer group, and the group processes each event id once (it skips an id it has seen, as activity-log's
// fold does). Prints {produced, acknowledged, consumed, duplicates, lost, longest_gap_ms, …}.
//
// "Acknowledged": publish() resolved, i.e. the broker has it with acks=all (2 of 3 replicas in sync), or the
// durable outbox has it when a send does not come back in time (the outbox replays it to the broker later).
// "Duplicates": deliveries of an id the group had processed already (at-least-once redelivery: a chunk whose
// commit did not reach the coordinator in time, or a send retried by a new producer after a timeout).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { eventually, haKafkaBrokers, infraControl, testLogLevel } from '@sesame/testing';
import { Kafka, logLevel } from 'kafkajs';
import pino from 'pino';
import { KafkaEventBus } from './kafka';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const logger = pino({ level: testLogLevel() });
const brokers = haKafkaBrokers();
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function bus(name: string) {
  const dir = await mkdtemp(join(tmpdir(), 'sesame-kafka-drill-'));
  dirs.push(dir);
  return KafkaEventBus.create({ brokers, clientId: `drill-${name}-${randomUUID()}`, outboxDir: dir, logger });
}

/** Publishing every 20 ms: 50 events a second, each its own publish call, keys spread over the partitions. */
const PUBLISH_EVERY_MS = 20;
const BEFORE_KILL_MS = 4_000;
const BROKER_DOWN_MS = 12_000;
const AFTER_RESTART_MS = 5_000;
/** How long partition 0 may stay without a new leader before the drill fails. */
const MOVE_WITHIN_MS = 40_000;

describe('kill -9 of a partition leader under load', () => {
  it('every acknowledged event is processed once by the consumer group; the broker rejoins', async () => {
    const infra = await infraControl();
    const admin = new Kafka({ clientId: 'drill-admin', brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const producerBus = await bus('producer');
    const consumerBus = await bus('consumer');
    const topic = `ha.drill.${randomUUID()}`;
    await producerBus.ensureTopics([topic]);

    const processed = new Map<string, number>(); // id → when it was first processed
    let duplicates = 0;
    const consumer = consumerBus.consumer({ groupId: `drill-${randomUUID()}`, topics: [topic] });
    await consumer.start(async (batch) => {
      for (const e of batch) {
        const id = e.value.toString();
        if (processed.has(id)) duplicates++;
        else processed.set(id, Date.now());
      }
    });

    const produced: string[] = [];
    const acknowledged = new Set<string>();
    let publishFailures = 0;
    let producing = true;
    const inFlight = new Set<Promise<void>>();
    const producer = (async () => {
      for (let i = 0; producing; i++) {
        const id = `e${i}`;
        produced.push(id);
        const p = producerBus.publisher
          .publish(topic, [{ key: `flow-${i % 30}`, value: Buffer.from(id) }])
          .then(
            () => void acknowledged.add(id),
            () => void publishFailures++,
          )
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
        await sleep(PUBLISH_EVERY_MS);
      }
    })();

    const t0 = Date.now();
    let killed: { node: number; partition: number; pid: number; at: number } | undefined;
    let newLeader = -1;
    let leaderMovedMs = -1;
    let restartedAt = 0;
    try {
      await sleep(BEFORE_KILL_MS);
      assert.ok(processed.size > 0, 'events flow before the kill');
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      const partition = topics[0]!.partitions.find((p) => p.partitionId === 0)!;
      const node = partition.leader;
      // Only this broker is looked up: status() would also adopt the default servers' pids into this checkout.
      const pid = infra.pidOf(`kafka-${node}` as 'kafka-1');
      assert.ok(pid, `kafka-${node} (leader of partition 0) runs`);
      process.kill(pid, 'SIGKILL'); // no controlled shutdown, no leader hand-over
      killed = { node, partition: 0, pid, at: Date.now() };

      // Down for BROKER_DOWN_MS, and at least until partition 0 has a new leader (the controller fences the dead
      // broker once its session lapses; if it was the active controller, a new one is elected first).
      const downUntil = Date.now() + BROKER_DOWN_MS;
      const moveDeadline = Date.now() + MOVE_WITHIN_MS;
      while (Date.now() < downUntil || ((newLeader === node || newLeader < 0) && Date.now() < moveDeadline)) {
        if (newLeader === -1 || newLeader === node) {
          const during = await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => undefined);
          const leader = during?.topics[0]!.partitions.find((p) => p.partitionId === 0)!.leader ?? -1;
          if (leader >= 0 && leader !== node) {
            newLeader = leader;
            leaderMovedMs = Date.now() - killed.at;
          }
        }
        await sleep(250);
      }
      await infra.start(`kafka-${node}` as 'kafka-1');
      restartedAt = Date.now();
      await sleep(AFTER_RESTART_MS);
    } finally {
      producing = false;
      await producer;
      await Promise.allSettled([...inFlight]);
    }
    // Whatever went to the outbox during the outage reaches the broker, then the group.
    await producerBus.publisher.flush(60_000);
    await eventually(
      async () => [...acknowledged].filter((id) => !processed.has(id)).length,
      (n) => n === 0,
      60_000,
      200,
    );
    await consumer.stop();

    // The longest wait for the next newly processed event while events were being published.
    const times = [...processed.values()].sort((a, b) => a - b);
    let longestGapMs = 0;
    for (let i = 1; i < times.length; i++) longestGapMs = Math.max(longestGapMs, times[i]! - times[i - 1]!);
    const lost = [...acknowledged].filter((id) => !processed.has(id));
    const unknown = [...processed.keys()].filter((id) => !produced.includes(id));
    // The restarted broker is back in every partition's in-sync replicas.
    const isr = await eventually(
      async () => {
        const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
        return topics[0]!.partitions.map((p) => p.isr.length);
      },
      (sizes) => sizes.every((n) => n === 3),
      30_000,
      500,
    );
    const report = {
      produced: produced.length,
      acknowledged: acknowledged.size,
      consumed: processed.size,
      duplicates,
      lost: lost.length,
      longest_gap_ms: longestGapMs,
      publish_failures: publishFailures,
      killed_broker: killed && `kafka-${killed.node}`,
      new_leader_of_partition_0: `kafka-${newLeader}`,
      leader_moved_after_ms: leaderMovedMs,
      broker_down_ms: killed && restartedAt - killed.at,
      run_ms: Date.now() - t0,
    };
    console.log(`kafka broker-loss drill: ${JSON.stringify(report)}`);
    await Promise.all([producerBus.close(), consumerBus.close(), admin.disconnect()]);

    assert.equal(report.lost, 0, `acknowledged but never consumed: ${lost.slice(0, 20).join(', ')}`);
    assert.equal(publishFailures, 0, 'no publish was refused');
    assert.equal(report.acknowledged, report.produced);
    assert.deepEqual(unknown, []);
    assert.equal(report.consumed, report.acknowledged, 'each acknowledged id processed once');
    assert.ok(newLeader > 0 && newLeader !== killed!.node, 'partition 0 moved to another broker');
    assert.deepEqual(isr, [3, 3, 3], 'the restarted broker caught up');
  }, 420_000);
});
