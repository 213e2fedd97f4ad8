import type { ServerWritableStream } from '@grpc/grpc-js';
import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { keys } from '@sesame/proto';
import type { ActiveSigningKey, KeyManager } from '../keys/key-manager';

type WatchCall = ServerWritableStream<keys.WatchSigningKeyRequest, keys.WatchSigningKeyResponse>;

/**
 * WatchSigningKey: the active signing key of every alg at once, then again on every activation (including ones made by
 * another jwks pod, seen on the next reconcile). The streams are tracked so shutdown can end them promptly.
 */
export class SigningKeyStreams {
  private readonly calls = new Set<WatchCall>();

  constructor(private readonly manager: KeyManager) {}

  readonly handle = (call: WatchCall): void => {
    const current = this.manager.activeSigningKeys();
    if (!this.manager.activeSigningKey()) {
      call.emit('error', new GrpcError(GrpcStatus.UNAVAILABLE, 'no active signing key yet; retry'));
      return;
    }
    // `key` stays the RS256 key (token pods of an earlier version read only it); `keys` has every alg.
    const send = (keys: ActiveSigningKey[]) => call.write({ key: keys.find((k) => k.alg === 'RS256'), keys });
    send(current);
    const unsubscribe = this.manager.watchSigningKey(send);
    this.calls.add(call);
    const done = () => {
      unsubscribe();
      this.calls.delete(call);
    };
    call.once('cancelled', done);
    call.once('finish', done);
    call.once('error', done);
  };

  /** Ends every open stream with OK; token pods reconnect (to another pod) and keep their last key meanwhile. */
  endAll(): void {
    for (const call of this.calls) call.end();
    this.calls.clear();
  }

  get size(): number {
    return this.calls.size;
  }
}
