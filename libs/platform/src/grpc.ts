// Over 300 lines on purpose: the gRPC server and client of every service in one place (deadlines, retries, TLS, callers, health, tracing), so they cannot drift apart.
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { authorizeCallers } from './grpc-callers';
import { outageStatus } from './grpc-errors';
import { type GrpcTlsFiles, channelCredentials, serverCredentials } from './grpc-tls';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';
import {
  SpanKind,
  activeTracer,
  contextFrom,
  contextWithSpan,
  endSpan,
  inTrace,
  injectTraceContext,
  withSpan,
} from './tracing';

export { status as GrpcStatus, Metadata } from '@grpc/grpc-js';

/** An error meant for the gRPC caller, with its status code. Anything else becomes INTERNAL. */
export class GrpcError extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
    this.name = 'GrpcError';
  }
}

type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** A generated `XServiceServer` with each unary method written as an async function. */
export type AsyncServer<S> = {
  [K in keyof KnownKeys<S>]: KnownKeys<S>[K] extends grpc.handleUnaryCall<infer Req, infer Res>
    ? (request: Req, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>
    : KnownKeys<S>[K];
};

const DEFAULT_DEADLINE_MS = 3000;

export interface GrpcServerOptions {
  logger: Logger;
  metrics?: ServiceMetrics;
}

export interface GrpcServerSecurity {
  /** mTLS files; with them every call but grpc.health.v1 is authorized by the caller's certificate. */
  tls?: GrpcTlsFiles;
}

/**
 * The definition with each server stream's serializer taking, besides a message, a message already encoded (a
 * Buffer of its bytes), as it is. A stream handler that encodes each message as soon as it has its data hands
 * grpc-js bytes: what waits in grpc-js's buffer of a slow stream (up to 16 messages) is then bytes, not the
 * objects the messages were made of, and those die young (docs/performance.md, the export).
 */
function passEncodedMessages(definition: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    const serialize = method.responseSerialize;
    out[name] = method.responseStream
      ? {
          ...method,
          responseSerialize: (value: unknown) => (Buffer.isBuffer(value) ? value : serialize(value)),
        }
      : method;
  }
  return out;
}

/** A grpc-js server with grpc.health.v1, error mapping, metrics and a bounded drain. */
export class GrpcServer {
  readonly server: grpc.Server;
  readonly health = new HealthImplementation({ '': 'NOT_SERVING' });
  private readonly services: string[] = [];
  private readonly shutdownHooks: Array<() => void> = [];
  port = 0;

  private readonly tls: GrpcTlsFiles | undefined;

  constructor(
    private opts: GrpcServerOptions,
    security: GrpcServerSecurity = {},
  ) {
    this.tls = security.tls;
    this.server = new grpc.Server({
      'grpc.keepalive_time_ms': 30_000,
      'grpc.max_receive_message_length': 4 * 1024 * 1024,
      interceptors: this.tls ? [authorizeCallers] : [],
    });
    this.health.addToServer(this.server);
  }

  /**
   * Logger and metrics for the services added from now on. The embedded launcher binds every server to a
   * port the OS picks before the service modules (which own the metrics) exist: choosing a port first and
   * binding it later races with every other socket on the machine.
   */
  instrument(opts: GrpcServerOptions): this {
    this.opts = opts;
    return this;
  }

  add<S>(definition: grpc.ServiceDefinition, implementation: AsyncServer<S>): this {
    const handlers: grpc.UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(definition)) {
      const impl = (implementation as Record<string, unknown>)[name];
      if (typeof impl !== 'function') throw new Error(`gRPC method ${method.path} has no implementation`);
      handlers[name] =
        method.requestStream || method.responseStream
          ? (impl as grpc.UntypedHandleCall)
          : this.wrapUnary(method.path, impl as (req: unknown, call: unknown) => Promise<unknown>);
    }
    this.server.addService(passEncodedMessages(definition), handlers);
    const serviceName = Object.values(definition)[0]?.path.split('/')[1];
    if (serviceName) {
      this.services.push(serviceName);
      this.health.setStatus(serviceName, 'NOT_SERVING');
    }
    return this;
  }

  private wrapUnary(
    path: string,
    impl: (req: unknown, call: unknown) => Promise<unknown>,
  ): grpc.handleUnaryCall<unknown, unknown> {
    const { logger, metrics } = this.opts;
    const handle = this.traced(path, impl);
    return (call, callback) => {
      const started = process.hrtime.bigint();
      const done = (code: grpc.status) =>
        metrics?.grpcDuration.observe(
          { method: path, code: grpc.status[code] },
          Number(process.hrtime.bigint() - started) / 1e9,
        );
      handle(call.request, call as grpc.ServerUnaryCall<unknown, unknown>).then(
        (response) => {
          done(grpc.status.OK);
          callback(null, response);
        },
        (err: unknown) => {
          if (err instanceof GrpcError) {
            done(err.code);
            callback({ code: err.code, details: err.message } as grpc.ServiceError);
            return;
          }
          const outage = outageStatus(err);
          if (outage) {
            logger.warn({ err, method: path }, 'gRPC call failed: downstream unavailable');
            done(outage.code);
            callback(outage as grpc.ServiceError);
            return;
          }
          metrics?.errors.inc({ kind: 'grpc' });
          logger.error({ err, method: path }, 'unhandled gRPC error');
          done(grpc.status.INTERNAL);
          callback({ code: grpc.status.INTERNAL, details: 'internal error' } as grpc.ServiceError);
        },
      );
    };
  }

  /**
   * With tracing on: a call with `traceparent` metadata (what createClient sends inside a trace) runs in a
   * SERVER span, its child; a call without one runs as it is (a gRPC server never starts a trace: the
   * decision was made where the request came in). Off: the method itself.
   */
  private traced(
    path: string,
    impl: (req: unknown, call: grpc.ServerUnaryCall<unknown, unknown>) => Promise<unknown>,
  ): (req: unknown, call: grpc.ServerUnaryCall<unknown, unknown>) => Promise<unknown> {
    const tracer = activeTracer();
    if (!tracer) return impl;
    const name = path.slice(1);
    return (req, call) => {
      if (call.metadata.get('traceparent').length === 0) return impl(req, call);
      const parent = contextFrom(call.metadata.getMap());
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
      if (span.isRecording()) span.setAttribute('rpc.system', 'grpc');
      return withSpan(span, parent, () => impl(req, call)).then(
        (res) => {
          endSpan(span);
          return res;
        },
        (err: unknown) => {
          if (!(err instanceof GrpcError)) endSpan(span, err);
          else {
            span.setAttribute('rpc.grpc.status_code', err.code);
            endSpan(span);
          }
          throw err;
        },
      );
    };
  }

  async start(port: number, host = '0.0.0.0'): Promise<number> {
    this.port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(`${host}:${port}`, serverCredentials(this.tls), (err, bound) =>
        err ? reject(err) : resolve(bound),
      ),
    );
    return this.port;
  }

  setServing(serving: boolean): void {
    const status = serving ? 'SERVING' : 'NOT_SERVING';
    this.health.setStatus('', status);
    for (const name of this.services) this.health.setStatus(name, status);
  }

  /** Called when stop() begins: long-lived server streams end here, or the drain would wait for the timeout. */
  onShutdown(hook: () => void): void {
    this.shutdownHooks.push(hook);
  }

  /** Refuses new calls, lets in-flight calls finish, forces after the timeout. */
  stop(timeoutMs: number): Promise<void> {
    this.setServing(false);
    for (const hook of this.shutdownHooks.splice(0)) hook();
    return new Promise((resolve) => {
      const force = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, timeoutMs);
      force.unref();
      this.server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  }
}

type UnaryClientMethod<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (error: grpc.ServiceError | null, response: Res) => void,
) => grpc.ClientUnaryCall;

export interface CallOpts {
  deadlineMs?: number;
  metadata?: grpc.Metadata;
}

/** The unary methods of a generated client, as promise-returning functions with a deadline. */
export type PromiseClient<C> = {
  // biome-ignore lint/suspicious/noExplicitAny: any (not never) so the generated callback types are assignable.
  [K in keyof C as C[K] extends UnaryClientMethod<any, any> ? K : never]: C[K] extends UnaryClientMethod<
    infer Req,
    infer Res
  >
    ? (request: Req, opts?: CallOpts) => Promise<Res>
    : never;
} & { raw: C; close: () => void };

type ClientCtor<C> = new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ClientOptions,
) => C;

/** Creates a client for a generated service with a default deadline on every unary call. */
export function createClient<C extends grpc.Client>(
  Ctor: ClientCtor<C>,
  address: string,
  defaults: { deadlineMs?: number; tls?: GrpcTlsFiles } = {},
): PromiseClient<C> {
  const raw = new Ctor(address, channelCredentials(defaults.tls), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.enable_retries': 1,
  });
  const tracer = activeTracer();
  return new Proxy({} as PromiseClient<C>, {
    get(_target, prop) {
      if (prop === 'raw') return raw;
      if (prop === 'close') return () => raw.close();
      const method = (raw as unknown as Record<string | symbol, unknown>)[prop];
      if (typeof method !== 'function') return undefined;
      if (tracer)
        return tracedCall(
          tracer,
          methodPathOf(Ctor, prop),
          method as (...args: unknown[]) => unknown,
          raw,
          defaults.deadlineMs,
        );
      return plainCall(method as (...args: unknown[]) => unknown, raw, defaults.deadlineMs);
    },
  });
}

/** A unary call as a promise, with the default deadline. */
function plainCall(
  method: (...args: unknown[]) => unknown,
  raw: unknown,
  defaultDeadlineMs: number | undefined,
): (request: unknown, opts?: CallOpts) => Promise<unknown> {
  return (request, opts = {}) =>
    new Promise((resolve, reject) => {
      const deadline = Date.now() + (opts.deadlineMs ?? defaultDeadlineMs ?? DEFAULT_DEADLINE_MS);
      method.call(
        raw,
        request,
        opts.metadata ?? new grpc.Metadata(),
        { deadline },
        (err: unknown, res: unknown) => (err ? reject(err) : resolve(res)),
      );
    });
}

/** `package.Service/Method` of a generated client's method (its definition's path), for span names. */
function methodPathOf(Ctor: unknown, prop: string | symbol): string {
  const service = (Ctor as { service?: Record<string, { path?: string }> }).service;
  return service?.[String(prop)]?.path?.slice(1) ?? String(prop);
}

/**
 * A unary call in a CLIENT span whose context travels in the call's metadata as W3C `traceparent`, so the
 * server's span (GrpcServer.traced) is its child. Outside a trace (no active span: a request the sampler left
 * out, a background task) the plain call, without a span or metadata.
 */
function tracedCall(
  tracer: NonNullable<ReturnType<typeof activeTracer>>,
  name: string,
  method: (...args: unknown[]) => unknown,
  raw: unknown,
  defaultDeadlineMs: number | undefined,
): (request: unknown, opts?: CallOpts) => Promise<unknown> {
  const plain = plainCall(method, raw, defaultDeadlineMs);
  return (request, opts = {}) => {
    if (!inTrace()) return plain(request, opts);
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT });
    if (span.isRecording()) span.setAttribute('rpc.system', 'grpc');
    const metadata = opts.metadata ?? new grpc.Metadata();
    const carrier: Record<string, string> = {};
    injectTraceContext(carrier, contextWithSpan(span));
    for (const key in carrier) metadata.set(key, carrier[key]!);
    return new Promise((resolve, reject) => {
      const deadline = Date.now() + (opts.deadlineMs ?? defaultDeadlineMs ?? DEFAULT_DEADLINE_MS);
      method.call(raw, request, metadata, { deadline }, (err: unknown, res: unknown) => {
        endSpan(span, err ?? undefined);
        if (err) reject(err);
        else resolve(res);
      });
    });
  };
}

export function isGrpcStatus(err: unknown, code: grpc.status): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/** Placeholder for a contract method whose implementation has not landed yet: answers UNIMPLEMENTED. */
export const notImplemented = async (): Promise<never> => {
  throw new GrpcError(grpc.status.UNIMPLEMENTED, 'not implemented yet');
};
