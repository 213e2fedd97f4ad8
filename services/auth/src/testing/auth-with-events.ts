import { MemoryEventBus } from '@sesame/events';
import { flowEventsReader, startAuth } from './hosted-test-client';
import { startedForSuite } from './suite';

/**
 * The auth service of the enclosing describe (startedForSuite), publishing its flow events on an in-memory bus;
 * `eventsOf(flowId)` gives the flow's events published so far, in order (one flow keeps to one partition).
 */
export function authWithEvents(opts: Omit<NonNullable<Parameters<typeof startAuth>[0]>, 'bus'> = {}) {
  const bus = new MemoryEventBus();
  return {
    eventsOf: flowEventsReader(() => bus),
    auth: startedForSuite(() => startAuth({ ...opts, bus })),
  };
}
