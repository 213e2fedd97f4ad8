import type { DeliveredEvent } from '@sesame/events';
import type { FlowEventFacts } from '@sesame/flow-events';
import { type Logger, outageOf } from '@sesame/platform';
import { groupByFlow } from '../domain/fold';
import type { ActivityLogRepository } from '../repositories/activity-logs.repository';
import type { DeadLetter } from './dead-letter';

export interface Decoded {
  facts: FlowEventFacts;
  event: DeliveredEvent;
}

/** Write attempts of a whole batch before its flows are written (or dead-lettered) one by one. */
export const MAX_WRITE_ATTEMPTS = 4;
export const DEFAULT_WRITE_RETRY_DELAYS_MS = [200, 1000, 3000];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writes a batch's flow events. An outage (Mongo unreachable) rethrows at once: the batch is redelivered and
 * nothing is lost while the store is away. Any other failure is retried MAX_WRITE_ATTEMPTS times; then each
 * flow is written on its own, and the events of the flows that still fail (a document the server refuses,
 * say) are returned for the dead-letter topic, so one bad flow never stalls its partition.
 */
export async function writeWithRetries(
  deps: { repository: ActivityLogRepository; logger: Logger; writeRetryDelaysMs?: number[] },
  decoded: Decoded[],
): Promise<DeadLetter[]> {
  const delays = deps.writeRetryDelaysMs ?? DEFAULT_WRITE_RETRY_DELAYS_MS;
  const all = decoded.map((d) => d.facts);
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.repository.applyFlowEvents(all);
      return [];
    } catch (err) {
      if (outageOf(err)) throw err;
      deps.logger.warn({ err, attempt, events: all.length }, 'writing flow events failed');
      if (attempt >= MAX_WRITE_ATTEMPTS) break;
      await sleep(delays[Math.min(attempt - 1, delays.length - 1)] ?? 1000);
    }
  }
  const letters: DeadLetter[] = [];
  for (const group of groupByFlow(all).values()) {
    try {
      await deps.repository.applyFlowEvents(group);
    } catch (err) {
      if (outageOf(err)) throw err;
      const ids = new Set(group.map((f) => f.eventId));
      const error = err instanceof Error ? err.message : String(err);
      for (const d of decoded)
        if (
          d.facts.flowId === group[0]!.flowId &&
          d.facts.tenantId === group[0]!.tenantId &&
          ids.has(d.facts.eventId)
        )
          letters.push({ event: d.event, reason: 'write_failed', error });
    }
  }
  return letters;
}
