import type { BatchHandler, EventBus } from '@sesame/events';
import { type SigninFunnel, UndecodableFlowEvent, decodeFlowEvent } from '@sesame/flow-events';
import type { Logger } from '@sesame/platform';
import { topics } from '@sesame/proto';
import type { ActivityLogRepository } from '../repositories/activity-logs.repository';
import { type ActivityConsumer, deadLetter, decodeBatch, logDeadLetters } from './dead-letter';
import { type Decoded, writeWithRetries } from './write-with-retries';

export { MAX_WRITE_ATTEMPTS } from './write-with-retries';

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
  /** ConsumerOptions.lingerMs (default FLOW_EVENTS_LINGER_MS; 0 in tests that want each event at once). */
  lingerMs?: number;
  /** Waits between write attempts of one batch (default DEFAULT_WRITE_RETRY_DELAYS_MS). */
  writeRetryDelaysMs?: number[];
  /** Counts the sign-in funnel from every event written (sesame_signin_funnel_total). */
  funnel?: SigninFunnel;
}

/**
 * One batch (one partition, offset order): decode every event, dead-letter the ones that cannot be decoded
 * or validated, fold the rest with one repository write. Resolves only after both, so offsets are committed
 * after the write; a failure rejects and the bus redelivers the batch, which the idempotent fold absorbs.
 * A write that keeps failing for another reason than an outage (see writeWithRetries) must not stall the
 * partition forever: after bounded retries, the flows that still cannot be written are dead-lettered.
 */
export function flowEventsHandler(
  deps: Pick<
    FlowEventsConsumerDeps,
    'bus' | 'repository' | 'logger' | 'deadLetterTopic' | 'writeRetryDelaysMs' | 'funnel'
  >,
): BatchHandler {
  return async (batch) => {
    const { decoded, letters } = decodeBatch(
      batch,
      (event): Decoded => ({ facts: decodeFlowEvent(event.value), event }),
      UndecodableFlowEvent,
    );
    const unwritable = decoded.length ? await writeWithRetries(deps, decoded) : [];
    letters.push(...unwritable);
    if (deps.funnel) {
      const lettered = new Set(unwritable.map((l) => l.event));
      for (const { facts, event } of decoded) if (!lettered.has(event)) deps.funnel.observe(facts);
    }
    logDeadLetters(deps.logger, letters, 'flow event dead-lettered');
    await deadLetter(deps.bus.publisher, deps.deadLetterTopic ?? topics.flowEventsDeadLetter, letters);
  };
}

/** How long the in-process bus gathers flow events before a batch: the activity log is this much later. */
export const FLOW_EVENTS_LINGER_MS = 100;

export function createFlowEventsConsumer(deps: FlowEventsConsumerDeps): ActivityConsumer {
  const consumer = deps.bus.consumer({
    groupId: deps.groupId ?? FLOW_EVENTS_GROUP,
    topics: [deps.topic ?? topics.flowEvents],
    maxBatchSize: deps.maxBatchSize ?? 1000,
    // A sign-in's ~8 events in one batch: one fold and one write of its record, not eight (embedded bus).
    lingerMs: deps.lingerMs ?? FLOW_EVENTS_LINGER_MS,
  });
  return {
    start: (handler = flowEventsHandler(deps)) => consumer.start(handler),
    stop: () => consumer.stop(),
  };
}
