import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import { type ExportFailure, OtlpJsonSpanProcessor } from './otlp-json-export';

/**
 * OpenTelemetry traces, off unless an OTLP endpoint is configured (docs/operations.md, Tracing). Everything
 * here asks `activeTracer()` first: with tracing off it is undefined and no caller creates a span, reads a
 * context or touches a header, so the hot paths pay one comparison. The SDK is loaded only when tracing
 * starts; ended spans go to the collector as OTLP/JSON in batches (otlp-json-export.ts). One tracer per
 * process, as OpenTelemetry's API is built (its context manager and propagator are process-wide): a service's
 * main starts it once, before it builds its servers and clients.
 */

/** What the OTEL_* variables say (tracingConfigOf in config.ts); absent: tracing off. */
export interface TracingConfig {
  /** The collector's OTLP/HTTP traces URL (…/v1/traces). */
  url: string;
  serviceName: string;
  sampler: TracesSampler;
  /** The ratio of a *traceidratio sampler, 0 to 1. */
  ratio: number;
  /** Headers sent with every export (OTEL_EXPORTER_OTLP_HEADERS: a collector's API key). */
  headers?: Record<string, string>;
  /** How long one export request may take, ms (OTEL_EXPORTER_OTLP_TIMEOUT). */
  timeoutMs?: number;
}

export const tracesSamplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TracesSampler = (typeof tracesSamplers)[number];

/** What startTracing hands back: flush and stop (main's shutdown). */
export interface TracingHandle {
  shutdown(): Promise<void>;
}

/** An exporter other than OTLP (tests: the SDK's InMemorySpanExporter), exported span by span. */
export interface TracingOptions {
  exporter?: unknown;
  /** Told of spans lost (a batch the collector refused or never answered, a full queue): exportWarnings. */
  onExportFailure?: (failure: ExportFailure) => void;
}

/**
 * What main gives startTracing as onExportFailure: a collector that refuses or misses the exports (a wrong API
 * key, a closed port, a full queue) is logged, not silent. The first loss at once, then at most one warning a
 * minute, each with the batches and spans lost since the last one (a span dropped from a full queue counts as a
 * span, not a batch) and the latest reason.
 */
export function exportWarnings(
  warn: (fields: { why: string; batches: number; spans: number }, message: string) => void,
  now: () => number = Date.now,
): (failure: ExportFailure) => void {
  let batches = 0;
  let spans = 0;
  let loggedAt = Number.NEGATIVE_INFINITY;
  return (failure) => {
    if (failure.batch) batches++;
    spans += failure.spans;
    if (now() - loggedAt < 60_000) return;
    warn({ why: failure.why, batches, spans }, 'traces not exported');
    batches = 0;
    spans = 0;
    loggedAt = now();
  };
}

let tracer: Tracer | undefined;
/**
 * The share of requests without a caller's `traceparent` that start a trace, when the listener can draw it
 * itself (startRootSpan): for the parent-based samplers and always_on/off, whose spans under a root follow
 * the root. Undefined for plain traceidratio, which decides every span by its trace id: there the SDK draws.
 */
let rootRatio: number | undefined;
/** Set while startRootSpan starts a root it has drawn: the root sampler then records it. */
let rootDrawn = false;

/** The process's tracer when tracing is on; undefined when off (then do no tracing work at all). */
export function activeTracer(): Tracer | undefined {
  return tracer;
}

/** Starts the SDK: W3C trace context, async context across awaits, batched OTLP/JSON export. */
export async function startTracing(
  config: TracingConfig,
  options: TracingOptions = {},
): Promise<TracingHandle> {
  const [sdk, core, hooks, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/core'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/resources'),
  ]);
  const ratio = new sdk.TraceIdRatioBasedSampler(config.ratio);
  const configured: Sampler = {
    always_on: new sdk.AlwaysOnSampler(),
    always_off: new sdk.AlwaysOffSampler(),
    traceidratio: ratio,
    parentbased_always_on: new sdk.AlwaysOnSampler(),
    parentbased_always_off: new sdk.AlwaysOffSampler(),
    parentbased_traceidratio: ratio,
  }[config.sampler];
  rootRatio = {
    always_on: 1,
    always_off: 0,
    traceidratio: undefined,
    parentbased_always_on: 1,
    parentbased_always_off: 0,
    parentbased_traceidratio: config.ratio,
  }[config.sampler];
  const recorded = { decision: sdk.SamplingDecision.RECORD_AND_SAMPLED };
  const root: Sampler = {
    shouldSample: (parent, traceId, name, kind, attributes, links) =>
      rootDrawn ? recorded : configured.shouldSample(parent, traceId, name, kind, attributes, links),
    toString: () => `RootDrawnByTheListener{${configured.toString()}}`,
  };
  const sampler = config.sampler.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
  // Spans become OTLP/JSON text as they end (otlp-json-export.ts: why not the SDK's BatchSpanProcessor).
  const processor = options.exporter
    ? new sdk.SimpleSpanProcessor(
        options.exporter as ConstructorParameters<typeof sdk.SimpleSpanProcessor>[0],
      )
    : new OtlpJsonSpanProcessor({
        url: config.url,
        headers: config.headers,
        timeoutMs: config.timeoutMs,
        onFailure: options.onExportFailure,
      });
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler,
    spanProcessors: [processor],
  });
  context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('sesame');
  return {
    async shutdown() {
      tracer = undefined;
      rootRatio = undefined;
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/**
 * A root span (a request without a caller's `traceparent`), or undefined when the sampler leaves it out.
 * The listener draws the sampling decision itself (Math.random against the ratio) before anything is made:
 * a request left out costs no span, no random trace and span ids and no sampler call. Under the
 * parent-based samplers a root decided by a random draw is the same as one decided by its random trace id.
 * Under plain traceidratio (every span decided by its trace id) the SDK decides, as before.
 */
export function startRootSpan(tracer: Tracer, name: string, kind: SpanKind): Span | undefined {
  if (rootRatio === undefined) {
    const span = tracer.startSpan(name, { kind }, ROOT_CONTEXT);
    return span.isRecording() ? span : undefined;
  }
  if (rootRatio < 1 && !(Math.random() < rootRatio)) return undefined;
  rootDrawn = true;
  try {
    return tracer.startSpan(name, { kind }, ROOT_CONTEXT);
  } finally {
    rootDrawn = false;
  }
}

/** Reads a carrier whose values may be arrays (node's IncomingHttpHeaders, gRPC metadata as a map). */
const headerGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    if (Array.isArray(value)) return value.map(String);
    return typeof value === 'string' ? value : undefined;
  },
};

/** The context a carrier's `traceparent` (and `tracestate`) names; the root context when it names none. */
export function contextFrom(carrier: Record<string, unknown>): Context {
  return propagation.extract(ROOT_CONTEXT, carrier, headerGetter);
}

/** Adds the active span's `traceparent` (and `tracestate`) to a carrier; nothing when no span is active. */
export function injectTraceContext(carrier: Record<string, string>, from: Context = context.active()): void {
  propagation.inject(from, carrier);
}

/** The ids of the active span when tracing is on and a span is active (the logger's mixin, the activity record). */
export function activeSpanIds(): { traceId: string; spanId: string; sampled: boolean } | undefined {
  if (!tracer) return undefined;
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { traceId, spanId, sampled: (traceFlags & 1) === 1 };
}

/**
 * Whether the active context belongs to a trace (a span, sampled or not, is active): what decides whether an
 * outgoing call carries trace context. Outside one, calls go out untraced: only where a request comes in is a
 * trace started (tracedListener), once.
 */
export function inTrace(): boolean {
  return trace.getSpan(context.active()) !== undefined;
}

/** The active context with `span` as its span. */
export function contextWithSpan(span: Span): Context {
  return trace.setSpan(context.active(), span);
}

/** Runs `fn` with `span` active. */
export function withSpan<T>(span: Span, parent: Context, fn: () => T): T {
  return context.with(trace.setSpan(parent, span), fn);
}

/** Ends a span with the error status (and the error recorded) when `err` is set. */
export function endSpan(span: Span, err?: unknown): void {
  if (err !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    if (err instanceof Error) span.recordException(err);
  }
  span.end();
}

export { SpanKind, SpanStatusCode };
