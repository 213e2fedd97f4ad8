import type { BatchHandler, DeliveredEvent, EventPublisher } from '@sesame/events';

/** A topic consumer of this service; tests may start it with their own handler around the real one. */
export interface ActivityConsumer {
  start(handler?: BatchHandler): Promise<void>;
  stop(): Promise<void>;
}

export interface DeadLetter {
  event: DeliveredEvent;
  /** Short machine-readable reason: decode_failed, validation_failed, write_failed. */
  reason: string;
  /** What exactly was wrong (no event content). */
  error: string;
}

/**
 * Moves events that can never be folded to a dead-letter topic, byte for byte, with headers saying why and
 * where they came from, so they can be inspected and replayed once the cause is fixed.
 */
export async function deadLetter(
  publisher: EventPublisher,
  topic: string,
  letters: DeadLetter[],
): Promise<void> {
  if (!letters.length) return;
  await publisher.publish(
    topic,
    letters.map(({ event, reason, error }) => ({
      key: event.key,
      value: event.value,
      headers: {
        ...event.headers,
        'dlq-reason': reason,
        'dlq-error': error.slice(0, 1000),
        'dlq-source-topic': event.topic,
        'dlq-source-partition': String(event.partition),
        'dlq-source-offset': event.offset,
      },
    })),
  );
}
