import type { ClientReadableStream } from '@grpc/grpc-js';
import type * as grpc from '@grpc/grpc-js';
import { type GrpcTlsFiles, type Logger, channelCredentials } from '@sesame/platform';
import { keys } from '@sesame/proto';
import type { KeyRing } from './key-ring';

export interface WatchOptions {
  address: string;
  /** mTLS files (this service's certificate); absent: plaintext. */
  tls?: GrpcTlsFiles;
  ring: KeyRing;
  logger: Logger;
  /** First reconnect delay; doubles per failed attempt up to maxBackoffMs, back to the start once a key arrives. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface SigningKeyWatch {
  stop(): void;
}

/**
 * Keeps the key ring fed from Keys.WatchSigningKey: the stream sends the active key at once and again on
 * every rotation. When it ends or fails (jwks restarting, network) it reconnects with jittered backoff;
 * meanwhile token keeps signing with the key it has.
 */
export function watchSigningKey({
  address,
  tls,
  ring,
  logger,
  minBackoffMs = 100,
  maxBackoffMs = 5000,
}: WatchOptions) {
  const client = new keys.KeysServiceClient(address, channelCredentials(tls), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_permit_without_calls': 1,
  });
  let call: ClientReadableStream<keys.WatchSigningKeyResponse> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let backoffMs = minBackoffMs;
  let stopped = false;

  const reconnect = () => {
    if (stopped) return;
    const delay = backoffMs / 2 + Math.random() * (backoffMs / 2);
    backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
    timer = setTimeout(connect, delay);
  };

  function connect() {
    if (stopped) return;
    const current = client.watchSigningKey({});
    call = current;
    let ended = false;
    const onEnd = (err?: grpc.ServiceError) => {
      if (ended || call !== current) return;
      ended = true;
      if (!stopped)
        logger.warn({ grpcCode: err?.code, details: err?.details }, 'signing key stream ended; reconnecting');
      reconnect();
    };
    current.on('data', (message: keys.WatchSigningKeyResponse) => {
      // `keys` has every alg; a jwks pod of an earlier version sends only `key` (RS256).
      const streamed = message.keys.length > 0 ? message.keys : message.key ? [message.key] : [];
      for (const key of streamed) {
        ring.accept(key).then(
          (active) => {
            backoffMs = minBackoffMs;
            if (active.kid === key.kid)
              logger.info({ kid: active.kid, alg: active.alg }, 'signing key active');
            else
              logger.warn(
                { kid: key.kid, activeKid: active.kid, alg: active.alg },
                'ignored a signing key older than the active one',
              );
          },
          (err: unknown) => logger.error({ err, alg: key.alg }, 'signing key from the Keys stream refused'),
        );
      }
    });
    current.on('error', onEnd);
    current.on('end', () => onEnd());
  }

  connect();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      call?.cancel();
      client.close();
    },
  } satisfies SigningKeyWatch;
}
