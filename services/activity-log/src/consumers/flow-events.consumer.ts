import type { BatchHandler, EventBus } from '@sesame/events';
import { type FlowEventFacts, UndecodableFlowEvent, decodeFlowEvent } from '@sesame/flow-events';
import type { Logger } from '@sesame/platform';
import { topics } from '@sesame/proto';
import type { ActivityLogRepository } from '../repositories/activity-logs.repository';
import { type ActivityConsumer, type DeadLetter, deadLetter } from './dead-letter';

export const FLOW_EVENTS_GROUP = 'sesame-activity-log.flow-events';

export interface FlowEventsConsumerDeps {
  bus: EventBus;
  repository: ActivityLogRepository;
  logger: Logger;
  groupId?: string;
  /** Default: the service's topic and its dead-letter topic; tests and benchmarks use topics of their own. */
  topic?: string;
  deadLetterTopic?: string;
  maxBatchSize?: number;
}

/**
 * One batch (one partition, offset order): decode every event, dead-letter the ones that cannot be decoded
 * or validated, fold the rest with one repository write. Resolves only after both, so offsets are committed
 * after the write; a failure rejects and the bus redelivers the batch, which the idempotent fold absorbs.
 */
export function flowEventsHandler(
  deps: Pick<FlowEventsConsumerDeps, 'bus' | 'repository' | 'logger' | 'deadLetterTopic'>,
): BatchHandler {
  return async (batch) => {
    const facts: FlowEventFacts[] = [];
    const letters: DeadLetter[] = [];
    for (const event of batch) {
      try {
        facts.push(decodeFlowEvent(event.value));
      } catch (err) {
        if (!(err instanceof UndecodableFlowEvent)) throw err;
        letters.push({ event, reason: err.reason, error: err.message });
      }
    }
    for (const { event, reason, error } of letters) {
      deps.logger.warn(
        { topic: event.topic, partition: event.partition, offset: event.offset, reason, error },
        'flow event dead-lettered',
      );
    }
    await Promise.all([
      deadLetter(deps.bus.publisher, deps.deadLetterTopic ?? topics.flowEventsDeadLetter, letters),
      facts.length ? deps.repository.applyFlowEvents(facts) : undefined,
    ]);
  };
}

export function createFlowEventsConsumer(deps: FlowEventsConsumerDeps): ActivityConsumer {
  const consumer = deps.bus.consumer({
    groupId: deps.groupId ?? FLOW_EVENTS_GROUP,
    topics: [deps.topic ?? topics.flowEvents],
    maxBatchSize: deps.maxBatchSize ?? 1000,
  });
  return {
    start: (handler = flowEventsHandler(deps)) => consumer.start(handler),
    stop: () => consumer.stop(),
  };
}
