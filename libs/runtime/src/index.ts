import { hostname } from 'node:os';
import type { EmbeddedStore } from '@sesame/embedded-store';
import { type EventBus, createEventBus, traceEventBus } from '@sesame/events';
import { type KeyValueStore, createKeyValueStore } from '@sesame/kv';
import { type Connection, connectMongo, pingMongo } from '@sesame/mongo';
import type { BaseConfig, Logger, Readiness } from '@sesame/platform';

export interface StoreNeeds {
  /** Redis keyspace owner: keys are `sesame:<owner>:...`. */
  kv?: boolean;
  events?: boolean;
  mongo?: boolean;
}

export interface Stores {
  kv?: KeyValueStore;
  bus?: EventBus;
  /** Undefined when no Mongo URL is configured: the service then uses its embedded or in-memory repositories. */
  mongo?: Connection;
  /**
   * The embedded default's durable engine, shared by every service of the process (given by the launcher;
   * undefined elsewhere). A service's repositories use it when no Mongo URL is configured.
   */
  embedded?: EmbeddedStore;
  readiness: Readiness[];
  close(): Promise<void>;
}

export interface StoreOverrides {
  /** The embedded launcher shares one in-memory bus between all services of the process. */
  bus?: EventBus;
  /** The embedded launcher's one durable engine (`SESAME_STORES=memory`: none, everything in memory). */
  embedded?: EmbeddedStore;
}

/** Opens what a service needs: real servers where their URLs are configured, in-memory adapters otherwise. */
export async function openStores(
  service: string,
  config: BaseConfig,
  needs: StoreNeeds,
  logger: Logger,
  overrides: StoreOverrides = {},
): Promise<Stores> {
  const readiness: Readiness[] = [];
  const kv = needs.kv
    ? createKeyValueStore({ redisUrl: config.SESAME_REDIS_URL, owner: service, embedded: overrides.embedded })
    : undefined;
  if (kv && config.SESAME_REDIS_URL) readiness.push({ name: 'redis', check: () => kv.ping() });
  const ownsBus = needs.events && !overrides.bus;
  // With tracing on, events carry the trace context in their headers (a no-op wrapper otherwise).
  const bus = needs.events
    ? traceEventBus(
        overrides.bus ??
          createEventBus({
            brokers: config.SESAME_KAFKA_BROKERS,
            clientId: `sesame-${service}`,
            dataDir: config.SESAME_DATA_DIR,
            topics: {
              replicationFactor: config.SESAME_KAFKA_REPLICATION_FACTOR,
              minInsyncReplicas: config.SESAME_KAFKA_MIN_INSYNC_REPLICAS,
            },
            shared: config.SESAME_OUTBOX_SHARED_DIR
              ? {
                  sharedDir: config.SESAME_OUTBOX_SHARED_DIR,
                  pod: config.POD_NAME ?? hostname(),
                  leaseMs: config.SESAME_OUTBOX_LEASE_MS,
                }
              : undefined,
            logger: logger.child({ component: 'events' }),
          }),
      )
    : undefined;
  if (bus && config.SESAME_KAFKA_BROKERS) readiness.push({ name: 'kafka', check: () => bus.ping() });
  const mongo =
    needs.mongo && config.SESAME_MONGO_URL
      ? await connectMongo(config.SESAME_MONGO_URL, { appName: `sesame-${service}` })
      : undefined;
  if (mongo) readiness.push({ name: 'mongo', check: () => pingMongo(mongo) });
  // The engine is opened and closed by the launcher: it serves every service of the process.
  const embedded = mongo ? undefined : overrides.embedded;
  return {
    kv,
    bus,
    mongo,
    embedded,
    readiness,
    async close() {
      await Promise.allSettled([kv?.close(), ownsBus ? bus?.close() : undefined, mongo?.close()]);
    },
  };
}
export { registerEventMetrics } from './event-metrics';
export { type ServiceBasics, type ServiceOverrides, openService } from './open-service';
export { type ServiceBuild, type ServiceParts, defineService } from './define-service';
