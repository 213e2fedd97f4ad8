import { z } from 'zod';
import { optionalHttpUrl, optionalString } from './config-fields';
import { type TracingConfig, tracesSamplers } from './tracing';

/**
 * The OTEL_* variables every service reads (part of baseConfigSchema) and what tracing makes of them
 * (docs/operations.md, Tracing; docs/config-reference.md lists them).
 */

export const tracingVariables = {
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalHttpUrl.describe(
    "Traces: the collector's OTLP/HTTP base URL (…/v1/traces is appended); unset: tracing off.",
  ),
  SESAME_OTEL_ENDPOINT: optionalHttpUrl.describe(
    "The same as OTEL_EXPORTER_OTLP_ENDPOINT under Sesame's name; OTEL_EXPORTER_OTLP_ENDPOINT wins when both are set.",
  ),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const headers = otlpHeadersOf(raw ?? '');
      if (typeof headers === 'string') ctx.addIssue({ code: z.ZodIssueCode.custom, message: headers });
      return typeof headers === 'string' ? {} : headers;
    })
    .describe(
      "Headers sent with every export, such as a hosted collector's API key: name=value pairs separated by commas, values percent-encoded (OpenTelemetry's format). Never logged.",
    ),
  OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce
    .number()
    .int()
    .min(1)
    .max(600_000)
    .default(10_000)
    .describe('How long one export request may take, in milliseconds; a batch that takes longer is dropped.'),
  OTEL_TRACES_SAMPLER: z
    .enum(tracesSamplers)
    .default('parentbased_traceidratio')
    .describe('Which traces are kept (the OpenTelemetry sampler names).'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(1)
    .describe('The ratio of the *traceidratio samplers (0.1: one trace in ten).'),
  OTEL_SERVICE_NAME: optionalString.describe(
    "The service name traces carry; default the service's own (auth, token, jwks, mgmt, activity-log, ciba-notifier).",
  ),
};

const tracingSchema = z.object(tracingVariables);
/** What the variables say, parsed. */
export type TracingVariables = z.infer<typeof tracingSchema>;

/** Tracing's settings when an OTLP endpoint is configured; undefined (tracing off) otherwise. */
export function tracingConfigOf(config: TracingVariables, service: string): TracingConfig | undefined {
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT ?? config.SESAME_OTEL_ENDPOINT;
  if (!base) return undefined;
  return {
    url: `${base.replace(/\/+$/, '')}/v1/traces`,
    serviceName: config.OTEL_SERVICE_NAME ?? service,
    sampler: config.OTEL_TRACES_SAMPLER,
    ratio: config.OTEL_TRACES_SAMPLER_ARG,
    headers: config.OTEL_EXPORTER_OTLP_HEADERS,
    timeoutMs: config.OTEL_EXPORTER_OTLP_TIMEOUT,
  };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers no configuration may set on an export: the exporter writes them itself. */
const EXPORTER_HEADERS = new Set([
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
]);

/**
 * OTEL_EXPORTER_OTLP_HEADERS as headers (`name=value,…`, values percent-encoded), or what is wrong with it. The
 * message names the pair by its position and never repeats a value: a value is usually a secret.
 */
export function otlpHeadersOf(raw: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  const pairs = raw.split(',');
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i]!.trim();
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = (at > 0 ? pair.slice(0, at) : '').trim().toLowerCase();
    if (!HEADER_NAME.test(name)) return `pair ${i + 1} is not name=value with a header name`;
    if (EXPORTER_HEADERS.has(name)) return `pair ${i + 1} sets ${name}, which the exporter sets itself`;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return `pair ${i + 1} (${name}) has a value that is not percent-encoded`;
    }
    if (/[\0\r\n]/.test(value)) return `pair ${i + 1} (${name}) has a line break or NUL in its value`;
    headers[name] = value;
  }
  return headers;
}
