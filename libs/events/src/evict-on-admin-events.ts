import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { EventBus, EventConsumer } from './port';

/** Which cache the admin events empty, and as whom. */
export interface AdminEventEvictions {
  /** The admin-events topic's name (`topics.adminEvents`; this library does not know the topic names). */
  topic: string;
  /** The consumer group's prefix; this pod's hostname and a random id follow it. */
  group: string;
  /** The cache's name in the log line. */
  cacheName: string;
}

/**
 * Empties this pod's cache on every admin event (an app, credential or tenant created, changed, revoked or
 * removed), for the caches of Directory answers in auth and token. Such changes are rare, so forgetting everything costs a few
 * round trips, and it needs no knowledge of which entry an event touches. Every pod must see every event, so
 * each pod is its own consumer group (hostname + random id), starting at the newest event: an event from
 * before this pod started concerns a cache it never had. The group is ephemeral: stopping the consumer at
 * shutdown deletes it from the broker, so restarts and rollouts do not leave a dead group behind each (a pod
 * that dies without stopping leaves it to the broker's offsets retention).
 */
export async function evictOnAdminEvents(
  bus: EventBus,
  cache: { clear(): void },
  logger: Logger,
  evictions: AdminEventEvictions,
): Promise<EventConsumer> {
  const consumer = bus.consumer({
    groupId: `${evictions.group}.${hostname()}.${randomUUID()}`,
    topics: [evictions.topic],
    fromBeginning: false,
    ephemeral: true,
  });
  await consumer.start(async (events) => {
    if (events.length === 0) return;
    cache.clear();
    logger.debug({ events: events.length }, `admin events: ${evictions.cacheName} cleared`);
  });
  return consumer;
}
