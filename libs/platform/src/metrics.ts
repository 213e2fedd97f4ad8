import {
  AggregatorRegistry,
  Counter,
  Histogram,
  type Metric,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';

export { Counter, Histogram, type Registry } from 'prom-client';

/**
 * Metrics of a library that a service uses without handing it its registry (mail, SMS, CIBA pings): the
 * library creates them once per process with `registers: []` and shares them here; every service registry,
 * created before or after, exports them. A deployed pod runs one service, so only the service that sends
 * mail shows mail series (a labelled metric has no series before its first use); in the embedded single
 * process every service's /metrics shows the same process-wide library series.
 */
const sharedMetrics: Metric[] = [];
const liveRegistries: Array<WeakRef<Registry>> = [];
/** Names of the series one process has once, whatever service reports them: shared and default metrics. */
const processWide = new Set<string>();

// prom-client's Metric type omits the name every metric has.
const nameOf = (metric: Metric): string => (metric as unknown as { name: string }).name;

export function shareMetric<M extends Metric>(metric: M): M {
  sharedMetrics.push(metric);
  processWide.add(nameOf(metric));
  for (const ref of liveRegistries) {
    const registry = ref.deref();
    if (registry && !registry.getSingleMetric(nameOf(metric))) registry.registerMetric(metric);
  }
  return metric;
}

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
  if (defaultMetrics) {
    collectDefaultMetrics({ register: registry });
    // The registry is new: all it holds now are the process metrics (CPU, memory, event loop, GC).
    for (const metric of registry.getMetricsAsArray()) processWide.add(metric.name);
  }
  for (const metric of sharedMetrics) registry.registerMetric(metric);
  for (let i = liveRegistries.length - 1; i >= 0; i--)
    if (!liveRegistries[i]!.deref()) liveRegistries.splice(i, 1);
  liveRegistries.push(new WeakRef(registry));
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

/**
 * One exposition for several services in one process (the embedded default's /metrics): every service's
 * series with its `service` label, one HELP and TYPE per metric. A process-wide series (shared library metrics,
 * the process' CPU and memory) appears once, without a service label: each registry reports the same value,
 * and summing them per service would count it once per service.
 */
export async function combinedMetrics(registries: readonly Registry[]): Promise<string> {
  const all = await Promise.all(registries.map((r) => r.getMetricsAsJSON()));
  // Taken from one registry only, so nothing to aggregate ('first'; prom-client would omit the start time).
  const withoutService = (metric: MetricObjectWithValues<MetricValue<string>>) => ({
    ...metric,
    aggregator: 'first' as const,
    values: metric.values.map(({ labels, ...value }) => {
      const { service: _service, ...rest } = labels as Record<string, string | number>;
      return { ...value, labels: rest };
    }),
  });
  const parts = all.map((metrics, i) =>
    metrics.flatMap((metric) =>
      !processWide.has(metric.name) ? [metric] : i === 0 ? [withoutService(metric)] : [],
    ),
  );
  return AggregatorRegistry.aggregate(parts).metrics();
}
