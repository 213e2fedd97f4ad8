import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ServiceMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  grpcDuration: Histogram<'method' | 'code'>;
  errors: Counter<'kind'>;
}

/** One registry per service instance (no global default registry: two services may share a process). */
export function createMetrics(service: string, { defaultMetrics = true } = {}): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (defaultMetrics) collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'sesame_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const grpcDuration = new Histogram({
    name: 'sesame_grpc_server_duration_seconds',
    help: 'gRPC server call duration by method and status code',
    labelNames: ['method', 'code'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'sesame_errors_total',
    help: 'Unexpected errors by kind',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  return { registry, httpDuration, grpcDuration, errors };
}
