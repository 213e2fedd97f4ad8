export * from './port';
export { MemoryEventBus, partitionOf } from './memory';
export { EmbeddedEventBus, type EmbeddedEventBusOptions, createEmbeddedEventBus } from './embedded';
export { KafkaEventBus, type KafkaEventBusOptions, type TopicSettings, topicReplication } from './kafka';
export { type AdminEventEvictions, evictOnAdminEvents } from './evict-on-admin-events';
export { readTopicToEnd, readTopicUntil, type ReadTopicOptions, TopicProgress } from './read-topic';

import type { Logger } from 'pino';
import { KafkaEventBus, type TopicSettings } from './kafka';
import { MemoryEventBus } from './memory';
import type { EventBus } from './port';

/** Real Kafka when brokers are configured (with a durable outbox under dataDir), else in-memory. */
export function createEventBus(opts: {
  brokers?: string;
  clientId: string;
  dataDir: string;
  /** Replication of the topics ensureTopics creates (unset: from the broker count). */
  topics?: TopicSettings;
  logger?: Logger;
  /** A volume every pod of the service shares: outboxes outlive their pods (see OutboxAdoption). */
  shared?: { sharedDir: string; pod: string; leaseMs: number };
}): EventBus {
  if (!opts.brokers) return new MemoryEventBus();
  return new KafkaEventBus({
    brokers: opts.brokers.split(',').map((b) => b.trim()),
    clientId: opts.clientId,
    outboxDir: `${opts.dataDir}/outbox/${opts.clientId}`,
    logger: opts.logger,
    topics: opts.topics,
    shared: opts.shared && { ...opts.shared, sharedDir: `${opts.shared.sharedDir}/${opts.clientId}` },
  });
}
export { traceEventBus } from './traced';
