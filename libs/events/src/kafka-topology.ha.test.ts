// The events contract on the HA topology's three Kafka brokers (npm run test:ha): the same behaviour as on one
// broker (kafka.int.test.ts), and the topics ensureTopics creates there are replicated 3 times with 2 in sync.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { haKafkaBrokers, testLogLevel } from '@sesame/testing';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import pino from 'pino';
import { eventBusContract } from './contract';
import { KafkaEventBus } from './kafka';

const logger = pino({ level: testLogLevel() });
const brokers = haKafkaBrokers();
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function bus(topics?: { replicationFactor?: number; minInsyncReplicas?: number }) {
  const dir = await mkdtemp(join(tmpdir(), 'sesame-kafka-ha-outbox-'));
  dirs.push(dir);
  return KafkaEventBus.create({ brokers, clientId: `ha-${randomUUID()}`, outboxDir: dir, logger, topics });
}

eventBusContract('kafka, three brokers', () => bus());

describe('topics on the three brokers', () => {
  const admin = new Kafka({ clientId: 'ha-topics-test', brokers, logLevel: logLevel.NOTHING }).admin();
  afterAll(() => admin.disconnect());

  /** A broker that has not heard of a topic created a moment ago answers UNKNOWN_TOPIC_OR_PARTITION: ask again. */
  async function replication(topic: string) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await describeTopic(topic);
      } catch (err) {
        if ((err as { type?: string }).type !== 'UNKNOWN_TOPIC_OR_PARTITION' || attempt === 20) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  async function describeTopic(topic: string) {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    const replicas = topics[0]!.partitions.map((p) => p.replicas.length);
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['min.insync.replicas'] }],
    });
    const minIsr = resources[0]!.configEntries.find(
      (e) => e.configName === 'min.insync.replicas',
    )!.configValue;
    return { partitions: replicas.length, replicas: [...new Set(replicas)], minIsr };
  }

  it('ensureTopics creates 3 partitions with 3 replicas each and min.insync.replicas 2 on a 3-broker cluster', async () => {
    await admin.connect();
    const { brokers: seen } = await admin.describeCluster();
    assert.equal(seen.length, 3);
    const b = await bus();
    try {
      const topic = `ha.topics.${randomUUID()}`;
      await b.ensureTopics([topic]);
      assert.deepEqual(await replication(topic), { partitions: 3, replicas: [3], minIsr: '2' });
    } finally {
      await b.close();
    }
  });

  it('follows SESAME_KAFKA_REPLICATION_FACTOR / _MIN_INSYNC_REPLICAS when they are set (2 and 1 here)', async () => {
    await admin.connect();
    const b = await bus({ replicationFactor: 2, minInsyncReplicas: 1 });
    try {
      const topic = `ha.topics.${randomUUID()}`;
      await b.ensureTopics([topic]);
      assert.deepEqual(await replication(topic), { partitions: 3, replicas: [2], minIsr: '1' });
    } finally {
      await b.close();
    }
  });

  it('the consumer offsets topic is replicated on the three brokers too', async () => {
    await admin.connect();
    const { topics } = await admin.fetchTopicMetadata({ topics: ['__consumer_offsets'] });
    assert.ok(topics[0]!.partitions.length > 0);
    for (const p of topics[0]!.partitions) assert.equal(p.replicas.length, 3);
  });
});
