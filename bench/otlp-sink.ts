/**
 * A stand-in OTLP/HTTP collector for the tracing benches (bench/token.bench.ts, bench/signin.bench.ts): it
 * takes `POST /v1/traces` as a collector does (reads the whole body, decodes the JSON that Sesame's exporter
 * sends, answers 200 `{}`) and counts what it was sent; `GET /counts` answers the tally, `POST /reset` zeroes
 * it. It keeps no span, so its own cost stays flat however long a bench runs. As a child process
 * (`node --import tsx bench/otlp-sink.ts`) it prints one JSON line ({url}) once it listens and runs until
 * stdin closes, so its CPU is not the platform's.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** What the sink was sent since it started or was last reset. */
export interface SinkCounts {
  /** Export requests (batches). */
  requests: number;
  spans: number;
  /** Distinct trace ids among the spans. */
  traces: number;
  /** Spans per `service.name` of their resource. */
  byService: Record<string, number>;
  /** Spans per `service.name span name`. */
  byName: Record<string, number>;
  /** Bodies that were not OTLP JSON (answered 400). */
  refused: number;
}

interface OtlpJson {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value?: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<{ traceId?: string; name?: string }> }>;
  }>;
}

export interface OtlpSink {
  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  counts(): SinkCounts;
  reset(): void;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let tally = empty();
  let traceIds = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/counts') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts()));
        return;
      }
      if (req.method === 'POST' && req.url === '/reset') {
        reset();
        res.writeHead(204).end();
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      try {
        const raw = Buffer.concat(chunks);
        const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        take(JSON.parse(body.toString('utf8')) as OtlpJson);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        tally.refused++;
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"not OTLP JSON"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  function take(payload: OtlpJson): void {
    tally.requests++;
    for (const resourceSpans of payload.resourceSpans ?? []) {
      const service =
        resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? '?';
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? []) {
          tally.spans++;
          tally.byService[service] = (tally.byService[service] ?? 0) + 1;
          const name = `${service} ${span.name ?? '?'}`;
          tally.byName[name] = (tally.byName[name] ?? 0) + 1;
          if (span.traceId) traceIds.add(span.traceId);
        }
    }
  }
  function counts(): SinkCounts {
    return { ...tally, traces: traceIds.size };
  }
  function reset(): void {
    tally = empty();
    traceIds = new Set();
  }
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    reset,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function empty(): SinkCounts {
  return { requests: 0, spans: 0, traces: 0, byService: {}, byName: {}, refused: 0 };
}

/** The tally of a sink running as a child process (its `url`). */
export async function sinkCounts(url: string): Promise<SinkCounts> {
  return (await (await fetch(`${url}/counts`)).json()) as SinkCounts;
}

if (process.argv[1] === import.meta.filename) {
  const sink = await startOtlpSink();
  process.stdout.write(`${JSON.stringify({ url: sink.url })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}
