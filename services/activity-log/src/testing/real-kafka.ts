import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventBus, KafkaEventBus, readTopicUntil } from '@sesame/events';
import { type FlowEvents, createFlowEvents } from '@sesame/flow-events';
import { connectMongo } from '@sesame/mongo';
import { createLogger } from '@sesame/platform';
import { eventually, isolatedMongoUrl, realServers, testLogLevel } from '@sesame/testing';
import type { Connection } from 'mongoose';
import { MongoActivityLogRepository } from '../repositories/activity-logs.mongo';

export const silentLogger = createLogger({
  service: 'activity-log-test',
  level: testLogLevel(),
});

export interface RealPipeline {
  bus: EventBus;
  conn: Connection;
  repository: MongoActivityLogRepository;
  /** Topics and group of this test alone, on the shared broker. */
  topic: string;
  deadLetterTopic: string;
  groupId: string;
  close(): Promise<void>;
}

/** A Kafka bus (own outbox dir), a private Mongo database and topic names no other test uses. */
export async function realPipeline(name: string): Promise<RealPipeline> {
  const servers = realServers();
  const outboxDir = mkdtempSync(join(tmpdir(), `${name}-outbox-`));
  const bus = await KafkaEventBus.create({
    brokers: servers.kafkaBrokers,
    clientId: `${name}-${randomUUID().slice(0, 8)}`,
    outboxDir,
    logger: silentLogger,
  });
  const conn = await connectMongo(isolatedMongoUrl(servers.mongoUrl, name), { appName: name });
  await conn.dropDatabase();
  const { repository } = await MongoActivityLogRepository.open(conn, {
    retentionDays: 90,
    logger: silentLogger,
  });
  const id = randomUUID();
  const topic = `test.${name}.flow-events.${id}`;
  const deadLetterTopic = `${topic}.dlq`;
  await bus.ensureTopics([topic, deadLetterTopic]);
  return {
    bus,
    conn,
    repository,
    topic,
    deadLetterTopic,
    groupId: `test-${name}-${id}`,
    async close() {
      await bus.close();
      await conn.close();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

/** Reads a topic from the beginning until n events arrived. */
/** Events of a topic, read from its beginning until n arrived (see readTopicUntil). */
export const readTopic = (bus: EventBus, topic: string, n: number, timeoutMs = 30_000) =>
  readTopicUntil(bus, topic, n, { timeoutMs });

/** The flow-event library publishing to the pipeline's own topic. */
export const libraryOn = (p: RealPipeline, topic = p.topic): FlowEvents =>
  createFlowEvents({ publisher: p.bus.publisher, logger: silentLogger, topic });
