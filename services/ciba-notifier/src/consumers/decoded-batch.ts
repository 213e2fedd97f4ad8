import type { BatchHandler } from '@sesame/events';
import type { Logger } from '@sesame/platform';
import type { Counter } from 'prom-client';

/**
 * A batch handler that decodes each event on its own (`codec`: the event's protobuf message type): an undecodable one is logged, counted as `undecodable`
 * and skipped (it can never succeed, so it must not hold the batch); the others go to `handle` concurrently,
 * and the batch resolves, and so is committed, once every `handle` has.
 */
export function decodedBatchHandler<T>(
  codec: { decode(bytes: Uint8Array): T },
  what: string,
  deps: { logger: Logger; results: Counter<'result'> },
  handle: (decoded: T) => Promise<void>,
): BatchHandler {
  return async (batch) => {
    await Promise.all(
      batch.map(async (message) => {
        let decoded: T;
        try {
          decoded = codec.decode(message.value);
        } catch (err) {
          deps.logger.error(
            { offset: message.offset, partition: message.partition, err },
            `undecodable ${what} skipped`,
          );
          deps.results.inc({ result: 'undecodable' });
          return;
        }
        await handle(decoded);
      }),
    );
  };
}

/** What a dispatching handler needs: where accepted items go, the logger and the results counter. */
export interface DispatchingDeps<T> {
  dispatcher: { accept(item: T): Promise<void> };
  logger: Logger;
  results: Counter<'result'>;
}

/**
 * A decodedBatchHandler that hands each event to the dispatcher (which makes it durable), unless `skipped`
 * names why it cannot be delivered: then it is counted under that result and left.
 */
export function dispatchingHandler<T>(
  codec: { decode(bytes: Uint8Array): T },
  what: string,
  deps: DispatchingDeps<T>,
  skipped: (item: T) => string | undefined,
): BatchHandler {
  return decodedBatchHandler(codec, what, deps, async (item) => {
    const reason = skipped(item);
    if (reason) {
      deps.results.inc({ result: reason });
      return;
    }
    await deps.dispatcher.accept(item);
  });
}
