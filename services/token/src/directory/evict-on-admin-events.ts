import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { EventBus, EventConsumer } from '@sesame/events';
import type { Logger } from '@sesame/platform';
import { topics } from '@sesame/proto';

/**
 * Empties this pod's Directory cache on every admin event (an app, credential or tenant created, changed,
 * revoked or removed): admin changes are rare, so forgetting everything costs a few Directory round trips,
 * and it needs no knowledge of which entry an event touches. Every pod must see every event, so each pod is
 * its own consumer group (hostname + random id), starting at the newest event: an event from before this
 * pod started concerns a cache it never had. The group is ephemeral: stopping the consumer at shutdown
 * deletes it from the broker, so restarts and rollouts do not leave a dead group behind each (a pod that dies
 * without stopping leaves it to the broker's offsets retention).
 */
export async function evictOnAdminEvents(
  bus: EventBus,
  cache: { clear(): void },
  logger: Logger,
): Promise<EventConsumer> {
  const consumer = bus.consumer({
    groupId: `sesame-token-directory-cache.${hostname()}.${randomUUID()}`,
    topics: [topics.adminEvents],
    fromBeginning: false,
    ephemeral: true,
  });
  await consumer.start(async (events) => {
    if (events.length === 0) return;
    cache.clear();
    logger.debug({ events: events.length }, 'admin events: Directory cache cleared');
  });
  return consumer;
}
