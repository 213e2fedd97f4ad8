import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { optionalString } from './config-fields';
import {
  type EnvironmentVars,
  environmentKinds,
  environmentNamePattern,
  isProductionLike,
  resolveEnvironment,
} from './environment';
import { redisUrlSchema } from './redis-url';
import { tracingVariables } from './tracing-config';

export { otlpHeadersOf, tracingConfigOf } from './tracing-config';

/** Raised when the environment does not describe a valid configuration; names every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const port = z.coerce.number().int().min(0).max(65535);
function validProxyList(value: string): boolean {
  try {
    proxyaddr.compile(
      value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    );
    return true;
  } catch {
    return false;
  }
}

/** Variables every service reads. Services extend this schema with their own. */
export const baseConfigSchema = z.object({
  SESAME_ENV: z
    .string()
    .regex(environmentNamePattern, 'must be a DNS label (lower-case letters, digits and hyphens)')
    .default('development')
    .describe(
      "The environment's name: a region (environment.ts); development, test, sandbox, production, production-eu imply their kind.",
    ),
  SESAME_ENV_KIND: z
    .enum(environmentKinds)
    .optional()
    .describe(
      'What the environment is (development, test, sandbox, production); every environment-dependent rule follows it.',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('Least severe level written to the JSON log (stdout).'),
  HTTP_PORT: port
    .default(8080)
    .describe(
      "The service's public HTTP port (OIDC endpoints, hosted pages, admin API); 0 lets the OS pick one.",
    ),
  GRPC_PORT: port
    .default(50051)
    .describe(
      "The port the service's gRPC server listens on (its contracts and grpc.health.v1); 0 lets the OS pick one.",
    ),
  OPS_PORT: port
    .default(0)
    .describe(
      '/healthz, /readyz and /metrics only on this port (keep it off the ingress). 0: no ops port: /healthz and /readyz on HTTP_PORT and no /metrics at all, since metrics are never served on the public port.',
    ),
  HTTP_HOST: z.string().default('0.0.0.0').describe('The address the HTTP and ops servers listen on.'),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe('After SIGTERM, requests in flight get this long to finish before the process exits anyway.'),
  SHUTDOWN_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe(
      'After SIGTERM, NOT_SERVING while still serving for this long (endpoint removal propagating); then drain.',
    ),
  READINESS_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5_000)
    .describe('How often the /readyz checks run to move the gRPC health status.'),
  SESAME_REDIS_URL: redisUrlSchema.describe(
    'One server, Sentinel or Cluster: redis-url.ts has the three forms.',
  ),
  SESAME_KAFKA_BROKERS: optionalString.describe(
    'Kafka bootstrap brokers, comma-separated host:port; unset: the in-process event bus (one machine only, refused in production).',
  ),
  SESAME_KAFKA_REPLICATION_FACTOR: z.coerce
    .number()
    .int()
    .min(1)
    .max(32)
    .optional()
    .describe(
      'Replication factor of the topics a service creates. Unset: 3 when the cluster has at least three brokers, else one copy per broker.',
    ),
  SESAME_KAFKA_MIN_INSYNC_REPLICAS: z.coerce
    .number()
    .int()
    .min(1)
    .max(32)
    .optional()
    .describe(
      'min.insync.replicas of the topics a service creates (at most the replication factor). Unset: 2 on three brokers or more, else 1.',
    ),
  SESAME_MONGO_URL: optionalString.describe(
    'MongoDB connection string (mongodb://…); unset: in-memory or embedded stores (one machine only, refused in production).',
  ),
  SESAME_DATA_DIR: z
    .string()
    .default('.sesame/data')
    .describe(
      'Directory of the embedded durable store when no server URL is given (npm start keeps its data there).',
    ),
  SESAME_OUTBOX_SHARED_DIR: optionalString.describe(
    'A volume shared by every pod of the service (ReadWriteMany): the Kafka outbox goes there, one directory per pod, so events buffered during an outage outlive the pod; another pod adopts them.',
  ),
  SESAME_OUTBOX_LEASE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30_000)
    .describe("A pod's outbox directory is adopted once its lease is this old (renewed every third of it)."),
  POD_NAME: optionalString.describe("This pod's name (Kubernetes downward API); the host name when unset."),
  SESAME_AUTH_URL: z
    .string()
    .url()
    .default('http://localhost:8080')
    .describe(
      "Public URL of the hosted sign-in pages and the OIDC issuer (its host is the passkeys' RP ID).",
    ),
  SESAME_ADMIN_URL: z
    .string()
    .url()
    .default('http://localhost:8080')
    .describe('Public URL of the Console and the admin API (links in administrator invitations).'),
  SESAME_API_URL: z
    .string()
    .url()
    .default('http://localhost:8080')
    .describe(
      'Public URL of the API host where interactive init is called, as the OpenAPI document advertises it.',
    ),
  SESAME_TRUSTED_PROXIES: z
    .string()
    .optional()
    .refine((v) => v === undefined || validProxyList(v), 'must be comma-separated CIDRs or IP addresses')
    .describe(
      'Comma-separated CIDRs (or proxy-addr names: loopback, linklocal, uniquelocal) of the proxies whose X-Forwarded-For is believed. Default: loopback in development and test, none elsewhere.',
    ),
  SESAME_TLS_CLIENT_CERT_HEADER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be an HTTP header name')
    .optional()
    .describe(
      "RFC 8705 client certificates behind a TLS terminator: the request header it forwards the client certificate in (nginx `$ssl_client_escaped_cert`: URL-encoded PEM; HAProxy: base64 DER). Unset: no header is read (a caller could write one), only the TLS socket's certificate (`npm start -- --https`).",
    ),
  SESAME_TLS_CLIENT_VERIFY_HEADER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be an HTTP header name')
    .optional()
    .describe(
      "The header with the terminator's verdict on that certificate's chain (nginx `$ssl_client_verify`: SUCCESS; HAProxy `%[ssl_c_verify]`: 0). Unset: forwarded certificates count as unverified, which self_signed_tls_client_auth accepts and tls_client_auth does not.",
    ),
  SESAME_GRPC_TLS_CA: optionalString.describe(
    "mTLS for gRPC (grpc-tls.ts): file paths of the CA, this service's certificate and its key.",
  ),
  SESAME_GRPC_TLS_CERT: optionalString.describe(
    "File path of this service's gRPC certificate (PEM); set with SESAME_GRPC_TLS_CA and SESAME_GRPC_TLS_KEY for mTLS.",
  ),
  SESAME_GRPC_TLS_KEY: optionalString.describe('File path of the private key of SESAME_GRPC_TLS_CERT (PEM).'),
  SESAME_GRPC_TLS_REFRESH_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(60_000)
    .describe('How often those files are re-read, so a rotated certificate takes effect without a restart.'),
  ...tracingVariables,
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

/**
 * Parses the environment once, validates it and freezes the result. Anything wrong stops the service
 * with a message naming the variable. Nothing else in a service reads process.env. `requiredStores`: the
 * store URLs a production-like environment must configure (requireStoreUrls).
 */
export function loadConfig<S extends z.ZodTypeAny>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
  requiredStores: StoreUrlVar[] = [],
): Readonly<z.infer<S>> {
  const parsed = schema.safeParse(env);
  const environment = readsEnvironment(schema)
    ? resolveEnvironment(env.SESAME_ENV ?? 'development', env.SESAME_ENV_KIND)
    : { problems: [] };
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)),
    ...environment.problems,
    ...(parsed.success ? kafkaTopicProblems(parsed.data) : []),
  ];
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const data = parsed.data as Record<string, unknown> & EnvironmentVars;
  if (environment.kind) {
    data.SESAME_ENV_KIND = environment.kind;
  }
  requireStoreUrls(data as EnvironmentVars & Partial<BaseConfig>, requiredStores);
  return Object.freeze(data) as Readonly<z.infer<S>>;
}

/** min.insync.replicas above the replication factor would refuse every acks=all write. */
function kafkaTopicProblems(data: {
  SESAME_KAFKA_REPLICATION_FACTOR?: number;
  SESAME_KAFKA_MIN_INSYNC_REPLICAS?: number;
}) {
  const rf = data.SESAME_KAFKA_REPLICATION_FACTOR;
  const isr = data.SESAME_KAFKA_MIN_INSYNC_REPLICAS;
  return rf !== undefined && isr !== undefined && isr > rf
    ? [`SESAME_KAFKA_MIN_INSYNC_REPLICAS: ${isr} is above SESAME_KAFKA_REPLICATION_FACTOR (${rf})`]
    : [];
}

/** Whether a schema has the environment variables (a service's), unwrapping refinements. */
function readsEnvironment(schema: z.ZodTypeAny): boolean {
  let at: z.ZodTypeAny = schema;
  while (at instanceof z.ZodEffects) at = at.innerType();
  return at instanceof z.ZodObject && 'SESAME_ENV' in at.shape;
}

/** The variables of the real stores' addresses. */
export type StoreUrlVar = 'SESAME_REDIS_URL' | 'SESAME_KAFKA_BROKERS' | 'SESAME_MONGO_URL';

/** In production-like environments a service must use real stores: in-memory state is for one machine only. */
export function requireStoreUrls(config: EnvironmentVars & Partial<BaseConfig>, vars: StoreUrlVar[]): void {
  if (!isProductionLike(config)) return;
  const problems = vars.filter((v) => !config[v]).map((v) => `${v}: required in ${config.SESAME_ENV}`);
  if (problems.length) throw new ConfigError(problems);
}

/** Refuses an insecure value in production-like environments (given a configuration or its name). */
export function refuseInProduction(env: string | EnvironmentVars, insecure: boolean, message: string): void {
  if (isProductionLike(env) && insecure) throw new ConfigError([message]);
}
