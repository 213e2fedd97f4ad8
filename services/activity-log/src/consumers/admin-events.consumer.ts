import type { BatchHandler, EventBus } from '@sesame/events';
import type { Logger } from '@sesame/platform';
import { topics } from '@sesame/proto';
import type { AdminLogRepository } from '../repositories/admin-logs.repository';
import { UndecodableAdminEvent, decodeAdminEvent } from './admin-event.codec';
import { type ActivityConsumer, deadLetter, decodeBatch, logDeadLetters } from './dead-letter';

export const ADMIN_EVENTS_GROUP = 'sesame-activity-log.admin-events';

export interface AdminEventsConsumerDeps {
  bus: EventBus;
  repository: AdminLogRepository;
  logger: Logger;
  groupId?: string;
  /** Default: the service's topic and its dead-letter topic; tests and benchmarks use topics of their own. */
  topic?: string;
  deadLetterTopic?: string;
}

/** Same shape as the flow-events handler: dead-letter what cannot be read, one write, then resolve. */
export function adminEventsHandler(
  deps: Pick<AdminEventsConsumerDeps, 'bus' | 'repository' | 'logger' | 'deadLetterTopic'>,
): BatchHandler {
  return async (batch) => {
    const { decoded: entries, letters } = decodeBatch(
      batch,
      (event) => decodeAdminEvent(event.value),
      UndecodableAdminEvent,
    );
    logDeadLetters(deps.logger, letters, 'admin event dead-lettered');
    await Promise.all([
      deadLetter(deps.bus.publisher, deps.deadLetterTopic ?? topics.adminEventsDeadLetter, letters),
      deps.repository.append(entries),
    ]);
  };
}

export function createAdminEventsConsumer(deps: AdminEventsConsumerDeps): ActivityConsumer {
  const consumer = deps.bus.consumer({
    groupId: deps.groupId ?? ADMIN_EVENTS_GROUP,
    topics: [deps.topic ?? topics.adminEvents],
  });
  return {
    start: (handler = adminEventsHandler(deps)) => consumer.start(handler),
    stop: () => consumer.stop(),
  };
}
