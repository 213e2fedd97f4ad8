import * as grpc from '@grpc/grpc-js';
import { keys } from '@sesame/proto';

/** Test-only Keys client built from the service definition (the generated code has no client classes). */
export function keysTestClient(address: string) {
  const Ctor = grpc.makeGenericClientConstructor(keys.KeysServiceService, 'KeysService');
  const client = new Ctor(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
    watchSigningKey(
      req: keys.WatchSigningKeyRequest,
    ): grpc.ClientReadableStream<keys.WatchSigningKeyResponse>;
    decryptRequestObject(
      req: keys.DecryptRequestObjectRequest,
      cb: (err: grpc.ServiceError | null, res: keys.DecryptRequestObjectResponse) => void,
    ): void;
    rotateKeys(
      req: keys.RotateKeysRequest,
      cb: (err: grpc.ServiceError | null, res: keys.RotateKeysResponse) => void,
    ): void;
  };
  const unary =
    <Req, Res>(method: (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => void) =>
    (req: Req) =>
      new Promise<Res>((resolve, reject) =>
        method.call(client, req, (err, res) => (err ? reject(err) : resolve(res))),
      );
  return {
    raw: client,
    decryptRequestObject: unary(client.decryptRequestObject),
    rotateKeys: unary(client.rotateKeys),
    /** Collects every streamed key; `next(n)` resolves once n keys have arrived. */
    watch() {
      const stream = client.watchSigningKey({});
      const received: keys.SigningKey[] = [];
      /** Each message's `keys` (the active key of every alg). */
      const sets: keys.SigningKey[][] = [];
      const waiters: Array<() => void> = [];
      let ended: { code?: number } | undefined;
      stream.on('data', (res: keys.WatchSigningKeyResponse) => {
        if (res.key) received.push(res.key);
        sets.push(res.keys);
        for (const w of waiters.splice(0)) w();
      });
      const finish = (status: { code?: number }) => {
        ended = status;
        for (const w of waiters.splice(0)) w();
      };
      stream.on('status', finish);
      stream.on('error', finish);
      return {
        received,
        sets,
        stream,
        ended: () => ended,
        async next(n: number, timeoutMs = 10_000): Promise<keys.SigningKey[]> {
          const deadline = Date.now() + timeoutMs;
          while (received.length < n && !ended) {
            if (Date.now() > deadline) throw new Error(`only ${received.length} of ${n} keys streamed`);
            await new Promise<void>((r) => {
              waiters.push(r);
              setTimeout(r, 100);
            });
          }
          return received.slice(0, n);
        },
      };
    },
    close: () => client.close(),
  };
}
