import type { EventPublisher, OutgoingEvent } from '@sesame/events';
import { activeSpanIds, activeTracer, inTrace, injectTraceContext } from '@sesame/platform/tracing';
import { topics } from '@sesame/proto';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { FLOW_EVENT_TYPE, encodeFlowEvent } from './codec';
import { orderedEventIds } from './event-id';
import { plainlyValidInput } from './plain-check';
import { type FlowEventFacts, type FlowEventInput, flowEventInputSchema } from './schema';

/** A flow step described with a value outside the contract: a bug at the call site, never a Kafka problem. */
export class InvalidFlowEvent extends Error {
  constructor(readonly issues: ZodError['issues']) {
    super(
      `invalid flow event: ${issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ')}`,
    );
    this.name = 'InvalidFlowEvent';
  }
}

export interface FlowEventsOptions {
  publisher: EventPublisher;
  logger: Logger;
  now?: () => number;
  newId?: () => string;
  /** Defaults to sesame.flow-events.v1; tests and benchmarks use a topic of their own. */
  topic?: string;
}

export interface FlowEvents {
  /**
   * Records one step of a person's flow on `sesame.flow-events.v1`, keyed by flowId so a flow's events stay
   * in order. Rejects with InvalidFlowEvent when the input breaks the contract. Never rejects because of the
   * broker: the publisher's durable outbox keeps events through an outage, and anything else is logged.
   * Resolves with the event as published (with its eventId and timestamp).
   */
  record(input: FlowEventInput): Promise<FlowEventFacts>;
  /**
   * Records steps that happen together in one publish (one call to the bus, in this order, each timestamped
   * 1 ms after the one before so the activity log keeps their order). Every input is validated first: one that
   * breaks the contract rejects with InvalidFlowEvent and none is published.
   */
  recordAll(inputs: readonly FlowEventInput[]): Promise<FlowEventFacts[]>;
}

/** Validates input at the call site; throws InvalidFlowEvent. */
export function toFlowEventFacts(
  input: FlowEventInput,
  now: () => number,
  newId: () => string,
): FlowEventFacts {
  if (plainlyValidInput(input)) {
    // What zod would return (a copy, nested objects included, so the caller's input stays its own), with the
    // defaults filled in: one copy instead of zod's, a destructuring and a spread.
    const facts = { ...input } as FlowEventFacts;
    facts.eventId = input.eventId ?? newId();
    facts.timestamp = input.timestamp ?? now();
    facts.details = input.details ? { ...input.details } : {};
    if (input.accessingDeviceInfo) facts.accessingDeviceInfo = { ...input.accessingDeviceInfo };
    if (input.authenticatingDeviceInfo)
      facts.authenticatingDeviceInfo = { ...input.authenticatingDeviceInfo };
    if (input.accessingDeviceLocation) facts.accessingDeviceLocation = { ...input.accessingDeviceLocation };
    return facts;
  }
  let parsed: ReturnType<typeof flowEventInputSchema.parse>;
  try {
    parsed = flowEventInputSchema.parse(input);
  } catch (err) {
    if (err instanceof ZodError) throw new InvalidFlowEvent(err.issues);
    throw err;
  }
  const { eventId, timestamp, details, ...rest } = parsed;
  return { ...rest, eventId: eventId ?? newId(), timestamp: timestamp ?? now(), details: details ?? {} };
}

/**
 * Events recorded in one turn of the event loop go out in one publish, after that turn: the bus (and, in the
 * embedded default, every consumer it wakes) does its per-publish work once for all the requests served in the
 * turn rather than once per request. Each record still resolves only after its events were published.
 */
function turnBatcher(publish: (events: OutgoingEvent[]) => Promise<void>) {
  let pending: { events: OutgoingEvent[]; settled: Promise<unknown> } | undefined;
  return (events: OutgoingEvent[]): Promise<unknown> => {
    if (!pending) {
      const batch: OutgoingEvent[] = [];
      const settled = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pending = undefined;
        return publish(batch).then(
          () => undefined,
          (err: unknown) => ({ err }),
        );
      });
      pending = { events: batch, settled };
    }
    for (const event of events) pending.events.push(event);
    return pending.settled;
  };
}

export function createFlowEvents(options: FlowEventsOptions): FlowEvents {
  const { publisher, logger, now = Date.now, newId = orderedEventIds(), topic = topics.flowEvents } = options;
  const headers = { 'event-type': FLOW_EVENT_TYPE };
  const publishAfterTurn = turnBatcher((events) => publisher.publish(topic, events));
  // With tracing on, each event carries the trace context of the request that recorded it: read here, not
  // when the turn's batch is published (that runs in the first recorder's context, for every request's events).
  const tracing = activeTracer() !== undefined;
  const headersNow = tracing
    ? () => {
        if (!inTrace()) return headers;
        const traced: Record<string, string> = { ...headers };
        injectTraceContext(traced);
        return traced;
      }
    : () => headers;
  const recordAll = async (inputs: readonly FlowEventInput[]) => {
    // Steps recorded together keep their order in the activity log, which orders events by time (ties by the
    // eventId, which sorts in the order this process made them): each one without a timestamp of its own is
    // 1 ms after the one before, so the order holds even for ids given by the caller.
    const at = now();
    const published = inputs.map((input, i) => toFlowEventFacts(input, () => at + i, newId));
    // The trace of a sampled request goes into the activity record, for support to hand to an SRE.
    const traced = tracing ? activeSpanIds() : undefined;
    if (traced?.sampled) for (const facts of published) facts.traceId ??= traced.traceId;
    const recordedHeaders = headersNow();
    const failed = await publishAfterTurn(
      published.map((facts) => ({
        key: facts.flowId,
        value: encodeFlowEvent(facts),
        headers: recordedHeaders,
      })),
    );
    if (failed) {
      // The publisher only rejects when even its durable outbox failed; a login must not fail for a log line.
      const { err } = failed as { err: unknown };
      for (const facts of published)
        logger.error(
          { err, flowId: facts.flowId, eventId: facts.eventId, action: facts.action },
          'flow event lost',
        );
    }
    return published;
  };
  return {
    recordAll,
    record: async (input) => (await recordAll([input]))[0]!,
  };
}
