import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from '@jest/globals';
import { baseConfigSchema, loadConfig, tracingConfigOf } from './config';
import { isUntracedPath, tracedListener } from './http-tracing';
import { createLogger } from './logger';
import { activeSpanIds, activeTracer, exportWarnings } from './tracing';

describe('tracing off by default', () => {
  it('reads no endpoint as off, and the OTEL variables as the collector URL, sampler and service name', () => {
    const off = loadConfig(baseConfigSchema, {});
    assert.equal(tracingConfigOf(off, 'auth'), undefined);
    const on = loadConfig(baseConfigSchema, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
    assert.deepEqual(tracingConfigOf(on, 'auth'), {
      url: 'http://127.0.0.1:4318/v1/traces',
      serviceName: 'auth',
      sampler: 'parentbased_traceidratio',
      ratio: 0.1,
      headers: {},
      timeoutMs: 10_000,
    });
    const named = loadConfig(baseConfigSchema, {
      SESAME_OTEL_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'token-eu',
      OTEL_TRACES_SAMPLER: 'always_on',
    });
    assert.equal(tracingConfigOf(named, 'token')?.serviceName, 'token-eu');
    assert.equal(tracingConfigOf(named, 'token')?.sampler, 'always_on');
  });

  it('refuses a collector endpoint that is not an http or https URL, naming the variable and not its value', () => {
    const refused = (name: string, value: string) => {
      try {
        loadConfig(baseConfigSchema, { [name]: value });
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error(`accepted ${value}`);
    };
    for (const value of ['ftp://user:s3cret@collector:4318', 'javascript:alert(1)', 'collector:4318']) {
      const message = refused('OTEL_EXPORTER_OTLP_ENDPOINT', value);
      assert.match(message, /OTEL_EXPORTER_OTLP_ENDPOINT.*an http:\/\/ or https:\/\/ URL/);
      assert.doesNotMatch(message, /s3cret/);
    }
    assert.match(
      refused('SESAME_OTEL_ENDPOINT', 'file:///tmp/x'),
      /SESAME_OTEL_ENDPOINT.*an http:\/\/ or https:\/\/ URL/,
    );
    // Empty still means unset: tracing off.
    assert.equal(
      tracingConfigOf(loadConfig(baseConfigSchema, { OTEL_EXPORTER_OTLP_ENDPOINT: '' }), 'auth'),
      undefined,
    );
  });

  it("reads OTEL_EXPORTER_OTLP_HEADERS as OpenTelemetry's name=value list, and the export timeout", () => {
    const on = loadConfig(baseConfigSchema, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example',
      OTEL_EXPORTER_OTLP_HEADERS: ' Authorization=Bearer%20s3cr%3Dt , x-scope-orgid=tenant-1,',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
    });
    const config = tracingConfigOf(on, 'token')!;
    assert.deepEqual(config.headers, { authorization: 'Bearer s3cr=t', 'x-scope-orgid': 'tenant-1' });
    assert.equal(config.timeoutMs, 2500);
  });

  it('refuses malformed export headers by the pair, never repeating a value (it is usually a secret)', () => {
    const refused = (raw: string) => {
      try {
        loadConfig(baseConfigSchema, { OTEL_EXPORTER_OTLP_HEADERS: raw });
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error(`accepted ${raw}`);
    };
    assert.match(refused('api-key=s3cret,broken'), /OTEL_EXPORTER_OTLP_HEADERS.*pair 2 is not name=value/);
    assert.match(refused('=s3cret'), /pair 1 is not name=value with a header name/);
    assert.match(refused('bad name=s3cret'), /pair 1 is not name=value/);
    assert.match(refused('content-length=5'), /pair 1 sets content-length, which the exporter sets itself/);
    assert.match(refused('api-key=%E0%A4%A'), /pair 1 \(api-key\) has a value that is not percent-encoded/);
    assert.match(refused('api-key=a%0D%0Ax-evil:1'), /pair 1 \(api-key\) has a line break or NUL/);
    for (const raw of ['api-key=s3cret,broken', 'api-key=%E0%A4%A', 'api-key=a%0D%0Ax-evil:1'])
      assert.doesNotMatch(refused(raw), /s3cret|%E0|evil/);
    assert.throws(
      () => loadConfig(baseConfigSchema, { OTEL_EXPORTER_OTLP_TIMEOUT: '0' }),
      /OTEL_EXPORTER_OTLP_TIMEOUT/,
    );
  });

  it('warns of lost spans at once, then at most once a minute with the batches and spans lost since and the latest reason', () => {
    let clock = 1_000_000;
    const warned: Array<[unknown, string]> = [];
    const lost = exportWarnings(
      (fields, message) => warned.push([fields, message]),
      () => clock,
    );
    lost({ spans: 512, batch: true, why: 'status 401' });
    assert.deepEqual(warned, [[{ why: 'status 401', batches: 1, spans: 512 }, 'traces not exported']]);
    clock += 30_000;
    lost({ spans: 3, batch: true, why: 'status 401' });
    lost({ spans: 1, batch: false, why: 'queue full' });
    lost({ spans: 1, batch: false, why: 'queue full' });
    assert.equal(warned.length, 1);
    clock += 30_000;
    lost({ spans: 7, batch: true, why: 'timeout' });
    // Two lost batches (3 and 7 spans) and two spans dropped from the full queue: 12 spans, 2 batches.
    assert.deepEqual(warned[1], [{ why: 'timeout', batches: 2, spans: 12 }, 'traces not exported']);
    clock += 59_999;
    lost({ spans: 1, batch: true, why: 'ECONNREFUSED' });
    assert.equal(warned.length, 2);
  });

  it('refuses a sampler or ratio outside the specification, naming the variable', () => {
    assert.throws(
      () => loadConfig(baseConfigSchema, { OTEL_TRACES_SAMPLER: 'sometimes' }),
      /OTEL_TRACES_SAMPLER/,
    );
    assert.throws(
      () => loadConfig(baseConfigSchema, { OTEL_TRACES_SAMPLER_ARG: '2' }),
      /OTEL_TRACES_SAMPLER_ARG/,
    );
  });

  it('leaves probes, scrapes, static files and the development outbox out of traces, and nothing else', () => {
    for (const url of [
      '/healthz',
      '/readyz?x=1',
      '/metrics',
      '/ops/auth/readyz',
      '/assets/a.css',
      '/console/assets/c.css',
      '/dev/mail',
    ])
      assert.equal(isUntracedPath(url), true, url);
    for (const url of [
      '/token',
      '/authorize?client_id=a',
      '/metricsx',
      '/healthz-page',
      '/flow/assets/x',
      '/.well-known/openid-configuration',
      '/jwks',
      '/console/tenants',
      '/',
    ])
      assert.equal(isUntracedPath(url), false, url);
  });

  it('enables no async hook when not started: promises made while serving a request carry no async ids', async () => {
    // Async context (AsyncLocalStorage) on Node 20 hooks every promise the process makes; tracing off must not.
    // In a process of its own: Jest's environment has async hooks of its own.
    const { execFile } = await import('node:child_process');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'testing', 'tracing-off-probe.ts')],
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      ),
    );
    assert.deepEqual(JSON.parse(out), { beforeServing: [], whileServing: [] });
  });

  it('adds nothing when not started: the listener is the one given, no ids, no trace fields in log lines', () => {
    assert.equal(activeTracer(), undefined);
    const next: RequestListener = () => {};
    assert.equal(tracedListener(next), next);
    assert.equal(activeSpanIds(), undefined);
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    createLogger({ service: 'test', destination }).info('hello');
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.equal(line.msg, 'hello');
    assert.equal('trace_id' in line, false);
    assert.equal('span_id' in line, false);
  });
});
