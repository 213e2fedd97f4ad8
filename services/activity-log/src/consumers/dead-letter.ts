import type { BatchHandler, DeliveredEvent, EventPublisher } from '@sesame/events';
import type { Logger } from '@sesame/platform';

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

/** What a codec throws for an event it cannot read: its reason becomes the dead letter's. */
type Undecodable = abstract new (...args: never[]) => { reason: string; message: string };

/**
 * Decodes each event of a batch with `decode`; an event it refuses with an `undecodable` error becomes a dead
 * letter, any other error rejects the batch.
 */
export function decodeBatch<T>(
  batch: DeliveredEvent[],
  decode: (event: DeliveredEvent) => T,
  undecodable: Undecodable,
): { decoded: T[]; letters: DeadLetter[] } {
  const decoded: T[] = [];
  const letters: DeadLetter[] = [];
  for (const event of batch) {
    try {
      decoded.push(decode(event));
    } catch (err) {
      if (!(err instanceof undecodable)) throw err;
      letters.push({ event, reason: err.reason, error: err.message });
    }
  }
  return { decoded, letters };
}

/** One warning per dead letter, naming where the event was and why (never its content). */
export function logDeadLetters(logger: Logger, letters: DeadLetter[], message: string): void {
  for (const { event, reason, error } of letters) {
    logger.warn(
      { topic: event.topic, partition: event.partition, offset: event.offset, reason, error },
      message,
    );
  }
}
