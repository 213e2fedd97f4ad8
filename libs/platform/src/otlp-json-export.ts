import type { Context, HrTime } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ExportWorker, type Sent } from './otlp-export-worker';

/**
 * The span processor tracing uses (startTracing): it turns a span into its OTLP/JSON text the moment the span
 * ends and keeps only that text until the batch goes to the collector (POST …/v1/traces, once a second or
 * when a batch is full), sent by a worker thread (otlp-export-worker.ts: why). It replaces the SDK's
 * BatchSpanProcessor with its OTLP exporter, whose export requests on the main thread were most of tracing's
 * cost to client_credentials (docs/operations.md, Tracing). What reaches the collector is what the SDK's
 * OTLP/JSON exporter sends for the same spans (otlp-json-export.test.ts compares the two).
 */

/** Where and how often to export; the limits are the BatchSpanProcessor's defaults. */
export interface OtlpJsonExportOptions {
  /** The collector's OTLP/HTTP traces URL (…/v1/traces). */
  url: string;
  /** Ended spans kept at most while the collector is slow or away; beyond, spans are dropped and counted. */
  maxQueue?: number;
  /** Spans per export request at most; a full batch is sent at once. */
  maxBatch?: number;
  /** How long an ended span waits for its batch at most, ms. */
  delayMs?: number;
  /** How long an export request may take, ms. */
  timeoutMs?: number;
  /** Headers sent with every export request (a collector's API key). */
  headers?: Record<string, string>;
  /**
   * Told of spans lost: each batch the collector refused or never answered, and each span dropped because the
   * queue was full (`queue full`); how many spans, and why (no secrets).
   */
  onFailure?: (failure: ExportFailure) => void;
}

/** Spans lost: how many, whether as a whole batch, and `status 401`, `timeout`, `ECONNREFUSED`, `queue full`, … */
export interface ExportFailure {
  spans: number;
  /** A batch the collector refused or never answered (true), or a span dropped before any batch (false). */
  batch: boolean;
  why: string;
}

/** What the processor did (tests; every loss is also told to onFailure). */
export interface OtlpJsonExportStats {
  exported: number;
  /** Spans dropped because the queue was full. */
  dropped: number;
  /** Spans in batches the collector refused or never answered. */
  failed: number;
}

export class OtlpJsonSpanProcessor implements SpanProcessor {
  readonly stats: OtlpJsonExportStats = { exported: 0, dropped: 0, failed: 0 };
  /** Ended spans as OTLP/JSON, per instrumentation scope (its OTLP/JSON is the key). */
  private queues = new Map<string, string[]>();
  private queued = 0;
  /** The resource's OTLP/JSON, from the first span (every span of a provider shares its resource). */
  private resource: string | undefined;
  private readonly maxQueue: number;
  private readonly maxBatch: number;
  private readonly delayMs: number;
  private readonly timeoutMs: number;
  private readonly url: URL;
  private readonly headers: Record<string, string>;
  private readonly onFailure: ((failure: ExportFailure) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private inFlight = new Set<Promise<void>>();
  private poster: ExportWorker | undefined;
  private stopped = false;

  constructor(options: OtlpJsonExportOptions) {
    this.url = new URL(options.url);
    this.maxQueue = options.maxQueue ?? 2048;
    this.maxBatch = options.maxBatch ?? 512;
    this.delayMs = options.delayMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.headers = options.headers ?? {};
    this.onFailure = options.onFailure;
  }

  onStart(_span: Span, _parent: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & 1) === 0) return;
    if (this.queued >= this.maxQueue) {
      this.stats.dropped++;
      this.onFailure?.({ spans: 1, batch: false, why: 'queue full' });
      return;
    }
    this.resource ??= JSON.stringify({
      attributes: attributesOf(span.resource.attributes),
      droppedAttributesCount: 0,
    });
    const scope = scopeJson(span.instrumentationScope);
    const queue = this.queues.get(scope);
    if (queue) queue.push(otlpSpanJson(span));
    else this.queues.set(scope, [otlpSpanJson(span)]);
    this.queued++;
    if (this.queued >= this.maxBatch) this.send();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.send(), this.delayMs);
      this.timer.unref();
    }
  }

  async forceFlush(): Promise<void> {
    while (this.queued > 0) this.send();
    await Promise.all([...this.inFlight]);
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.stopped = true;
    await this.poster?.stop();
  }

  /** Sends one batch of at most maxBatch spans from the queues; what is left goes in the next turn. */
  private send(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queued === 0) return;
    const scopeSpans: string[] = [];
    let spans = 0;
    for (const [scope, queue] of this.queues) {
      const take = Math.min(queue.length, this.maxBatch - spans);
      const batch = take === queue.length ? queue : queue.splice(0, take);
      if (batch === queue) this.queues.delete(scope);
      scopeSpans.push(`{${scope},"spans":[${batch.join(',')}]}`);
      spans += take;
      if (spans === this.maxBatch) break;
    }
    this.queued -= spans;
    if (this.queued > 0) {
      this.timer = setTimeout(() => this.send(), 0);
      this.timer.unref();
    }
    const body = `{"resourceSpans":[{"resource":${this.resource},"scopeSpans":[${scopeSpans.join(',')}]}]}`;
    const done = this.post(body).then(({ ok, why }) => {
      if (ok) this.stats.exported += spans;
      else {
        this.stats.failed += spans;
        this.onFailure?.({ spans, batch: true, why });
      }
      this.inFlight.delete(done);
    });
    this.inFlight.add(done);
  }

  /** One export request; ok when the collector answered 2xx. Never rejects: a lost batch is counted. */
  private post(body: string): Promise<Sent> {
    this.poster ??= new ExportWorker(this.url.href, this.timeoutMs, this.headers);
    return this.poster.post(body);
  }
}

/** A span as OTLP/JSON (ids in hex, times as decimal nanosecond strings, kinds and codes as numbers). */
export function otlpSpanJson(span: ReadableSpan): string {
  const ctx = span.spanContext();
  const parent = span.parentSpanContext;
  return JSON.stringify({
    traceId: ctx.traceId,
    spanId: ctx.spanId,
    parentSpanId: parent?.spanId || undefined,
    traceState: ctx.traceState?.serialize(),
    name: span.name,
    kind: span.kind + 1,
    startTimeUnixNano: nanos(span.startTime),
    endTimeUnixNano: nanos(span.endTime),
    attributes: attributesOf(span.attributes),
    droppedAttributesCount: span.droppedAttributesCount,
    events: span.events.map((event) => ({
      attributes: event.attributes ? attributesOf(event.attributes) : [],
      name: event.name,
      timeUnixNano: nanos(event.time),
      droppedAttributesCount: event.droppedAttributesCount || 0,
    })),
    droppedEventsCount: span.droppedEventsCount,
    status: { code: span.status.code, message: span.status.message },
    links: span.links.map((link) => ({
      attributes: link.attributes ? attributesOf(link.attributes) : [],
      spanId: link.context.spanId,
      traceId: link.context.traceId,
      traceState: link.context.traceState?.serialize(),
      droppedAttributesCount: link.droppedAttributesCount || 0,
      flags: flagsOf(link.context.traceFlags, link.context.isRemote),
    })),
    droppedLinksCount: span.droppedLinksCount,
    flags: flagsOf(ctx.traceFlags, parent?.isRemote),
  });
}

/** A scope's part of its scopeSpans entry (`"scope":{…}` and its schema URL), the key of its queue. */
function scopeJson(scope: ReadableSpan['instrumentationScope']): string {
  const json = `"scope":${JSON.stringify({ name: scope.name, version: scope.version })}`;
  return scope.schemaUrl ? `${json},"schemaUrl":${JSON.stringify(scope.schemaUrl)}` : json;
}

/** OTLP's span flags: the W3C trace flags, and whether the parent was remote (HAS_IS_REMOTE, IS_REMOTE). */
function flagsOf(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | 0x100 | (isRemote ? 0x200 : 0);
}

function nanos([seconds, ns]: HrTime): string {
  return seconds === 0 ? String(ns) : `${seconds}${String(ns).padStart(9, '0')}`;
}

type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: number }
  | { doubleValue: number }
  | { bytesValue: string }
  | { arrayValue: { values: AnyValue[] } }
  | { kvlistValue: { values: Array<{ key: string; value: AnyValue }> } }
  | Record<string, never>;

function attributesOf(attributes: Record<string, unknown>): Array<{ key: string; value: AnyValue }> {
  const out: Array<{ key: string; value: AnyValue }> = [];
  for (const key in attributes) out.push({ key, value: anyValueOf(attributes[key]) });
  return out;
}

/** As OTLP/JSON: the SDK's exporter's rules (integers as intValue, bytes in base64, anything else empty). */
function anyValueOf(value: unknown): AnyValue {
  switch (typeof value) {
    case 'string':
      return { stringValue: value };
    case 'number':
      return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
    case 'boolean':
      return { boolValue: value };
  }
  if (value instanceof Uint8Array) return { bytesValue: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValueOf) } };
  if (typeof value === 'object' && value !== null) {
    const values = Object.keys(value).map((key) => ({
      key,
      value: anyValueOf((value as Record<string, unknown>)[key]),
    }));
    return { kvlistValue: { values } };
  }
  return {};
}
