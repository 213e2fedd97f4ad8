import type { Span } from '@opentelemetry/api';
import {
  SpanKind,
  activeTracer,
  contextFrom,
  endSpan,
  inTrace,
  injectTraceContext,
  withSpan,
} from '@sesame/platform/tracing';
import type { BatchHandler, DeliveredEvent, EventBus, OutgoingEvent } from './port';

/** Spans of one batch at most: a batch of many flows' events is still one handler call. */
const MAX_SPANS_PER_BATCH = 16;

/**
 * The bus with W3C trace context in the event headers, when tracing is on (off: the bus itself).
 * Publishing: an event without a `traceparent` header gets the active span's (flow events set their own when
 * recorded, since they are published after the request's turn: flow-events' publisher). Consuming: each
 * distinct `traceparent` of a batch gets a CONSUMER span, child of the producer's, so the consumer's work
 * lands in the sign-in's trace; the handler runs inside the first one (its log lines carry that trace id).
 * The headers ride along on every bus: Kafka's record headers, the outbox, the embedded and memory logs.
 */
export function traceEventBus(bus: EventBus): EventBus {
  const tracer = activeTracer();
  if (!tracer) return bus;
  const publisher = bus.publisher;
  return new Proxy(bus, {
    get(target, prop, receiver) {
      if (prop === 'publisher')
        return {
          publish: (topic: string, events: OutgoingEvent[]) =>
            publisher.publish(topic, events.map(withTraceparent)),
          flush: (timeoutMs?: number) => publisher.flush(timeoutMs),
          pending: () => publisher.pending(),
        };
      if (prop === 'consumer')
        return (options: Parameters<EventBus['consumer']>[0]) => {
          const consumer = target.consumer(options);
          return {
            start: (handler: BatchHandler) => consumer.start(tracedHandler(handler, options.groupId)),
            stop: () => consumer.stop(),
          };
        };
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

  function tracedHandler(handler: BatchHandler, groupId: string): BatchHandler {
    return async (events: DeliveredEvent[]) => {
      const spans: Span[] = [];
      const parents = new Map<string, ReturnType<typeof contextFrom>>();
      for (const event of events) {
        const traceparent = event.headers.traceparent;
        if (!traceparent || parents.has(traceparent) || parents.size >= MAX_SPANS_PER_BATCH) continue;
        parents.set(traceparent, contextFrom(event.headers));
      }
      if (parents.size === 0) return handler(events);
      let first: { span: Span; parent: ReturnType<typeof contextFrom> } | undefined;
      for (const parent of parents.values()) {
        const span = tracer!.startSpan(`process ${events[0]!.topic}`, { kind: SpanKind.CONSUMER }, parent);
        if (span.isRecording())
          span.setAttributes({
            'messaging.system': 'kafka',
            'messaging.destination.name': events[0]!.topic,
            'messaging.consumer.group.name': groupId,
            'messaging.batch.message_count': events.length,
          });
        spans.push(span);
        first ??= { span, parent };
      }
      try {
        await withSpan(first!.span, first!.parent, () => handler(events));
        for (const span of spans) endSpan(span);
      } catch (err) {
        for (const span of spans) endSpan(span, err);
        throw err;
      }
    };
  }
}

function withTraceparent(event: OutgoingEvent): OutgoingEvent {
  if (event.headers?.traceparent || !inTrace()) return event;
  const headers: Record<string, string> = { ...(event.headers ?? {}) };
  injectTraceContext(headers);
  return headers.traceparent ? { ...event, headers } : event;
}
