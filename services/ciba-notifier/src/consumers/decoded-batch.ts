import type { BatchHandler } from '@sesame/events';
import type { Logger } from '@sesame/platform';
import type { Counter } from 'prom-client';

/**
 * A batch handler that decodes each event on its own: an undecodable one is logged, counted as `undecodable`
 * and skipped (it can never succeed, so it must not hold the batch); the others go to `handle` concurrently,
 * and the batch resolves, and so is committed, once every `handle` has.
 */
export function decodedBatchHandler<T>(
  decode: (bytes: Uint8Array) => T,
  what: string,
  deps: { logger: Logger; results: Counter<'result'> },
  handle: (decoded: T) => Promise<void>,
): BatchHandler {
  return async (batch) => {
    await Promise.all(
      batch.map(async (message) => {
        let decoded: T;
        try {
          decoded = decode(message.value);
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
