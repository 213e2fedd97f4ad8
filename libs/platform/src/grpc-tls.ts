import * as grpc from '@grpc/grpc-js';
import { type BaseConfig, ConfigError } from './config';
import { type EnvironmentVars, isProductionLike } from './environment';

/**
 * mTLS between the services. Each service gets three files (in the Helm chart: a Secret with keys ca.crt,
 * tls.crt, tls.key mounted at /etc/sesame/grpc-tls/): the CA that signs every service certificate, its own
 * certificate (subject CN = its service name, DNS SANs = the names clients dial) and its key. The same
 * certificate serves (server) and identifies (client). Files are re-read when they change, so a rotated
 * Secret takes effect without a restart.
 */
type GrpcTlsVars = Pick<
  BaseConfig,
  'SESAME_GRPC_TLS_CA' | 'SESAME_GRPC_TLS_CERT' | 'SESAME_GRPC_TLS_KEY' | 'SESAME_GRPC_TLS_REFRESH_MS'
>;

export interface GrpcTlsFiles {
  ca: string;
  cert: string;
  key: string;
  refreshMs: number;
}

const VARS = ['SESAME_GRPC_TLS_CA', 'SESAME_GRPC_TLS_CERT', 'SESAME_GRPC_TLS_KEY'] as const;

/**
 * The TLS files of a configuration: all three or none. None means plaintext, which every production-kind
 * environment refuses: their gRPC ports carry signing keys and grant operations.
 */
export function grpcTlsOf(config: GrpcTlsVars & EnvironmentVars): GrpcTlsFiles | undefined {
  const set = VARS.filter((v) => config[v]);
  if (set.length === 0) {
    if (isProductionLike(config))
      throw new ConfigError(VARS.map((v) => `${v}: required in ${config.SESAME_ENV} (gRPC runs over mTLS)`));
    return undefined;
  }
  if (set.length < VARS.length)
    throw new ConfigError(
      VARS.filter((v) => !config[v]).map((v) => `${v}: set all three gRPC TLS files or none`),
    );
  return {
    ca: config.SESAME_GRPC_TLS_CA!,
    cert: config.SESAME_GRPC_TLS_CERT!,
    key: config.SESAME_GRPC_TLS_KEY!,
    refreshMs: config.SESAME_GRPC_TLS_REFRESH_MS,
  };
}

/** Re-reads the three files every refreshMs; credentials built from it pick up a rotated Secret. */
function watchFiles(tls: GrpcTlsFiles) {
  return new grpc.experimental.FileWatcherCertificateProvider({
    caCertificateFile: tls.ca,
    certificateFile: tls.cert,
    privateKeyFile: tls.key,
    refreshIntervalMs: tls.refreshMs,
  });
}

/**
 * Server side: TLS with the service certificate, and a client certificate requested and verified against
 * the CA but not required at the handshake, so grpc.health.v1 stays callable by probes that have none.
 * Every other method needs a verified certificate of an allowed caller (see grpc-callers.ts).
 */
export function serverCredentials(tls: GrpcTlsFiles | undefined): grpc.ServerCredentials {
  if (!tls) return grpc.ServerCredentials.createInsecure();
  const provider = watchFiles(tls);
  return grpc.experimental.createCertificateProviderServerCredentials(provider, provider, false);
}

/**
 * Client side: verifies the server's certificate against the CA and its DNS SANs against the host part of
 * the address dialled (SESAME_*_ADDR, e.g. `sesame-mgmt:50054`), and presents this service's certificate.
 */
export function channelCredentials(tls: GrpcTlsFiles | undefined): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  const provider = watchFiles(tls);
  return grpc.experimental.createCertificateProviderChannelCredentials(provider, provider);
}
