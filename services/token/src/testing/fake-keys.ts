// Test support only: a Keys service that streams RSA signing keys it generates, and rotates on demand,
// standing in for the jwks service where a test needs no Mongo.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { ServerWritableStream } from '@grpc/grpc-js';
import { GrpcServer, type Logger, notImplemented } from '@sesame/platform';
import { keys } from '@sesame/proto';
import { type JSONWebKeySet, type JWK, exportJWK, importSPKI } from 'jose';

interface TestKey {
  kid: string;
  privateKeyPem: string;
  publicKeyPem: string;
  activatedAt: number;
}

type Watcher = ServerWritableStream<keys.WatchSigningKeyRequest, keys.WatchSigningKeyResponse>;

export class FakeKeys {
  private readonly all: TestKey[] = [];
  private readonly watchers = new Set<Watcher>();

  constructor() {
    this.generate();
  }

  get active(): TestKey {
    return this.all[this.all.length - 1]!;
  }

  /** A new key becomes active and is streamed to every watcher; earlier keys stay in the JWK set. */
  rotate(): TestKey {
    const key = this.generate();
    for (const watcher of this.watchers) watcher.write(this.message(key));
    return key;
  }

  /** Streams an earlier key again, as a jwks pod that lags behind a rotation does after a reconnect. */
  resend(key: TestKey): void {
    for (const watcher of this.watchers) watcher.write(this.message(key));
  }

  async jwks(): Promise<JSONWebKeySet> {
    const keysOut: JWK[] = [];
    for (const k of this.all) {
      const jwk = await exportJWK(await importSPKI(k.publicKeyPem, 'RS256', { extractable: true }));
      keysOut.push({ ...jwk, kid: k.kid, use: 'sig', alg: 'RS256' });
    }
    return { keys: keysOut };
  }

  /** Ends every open stream (as a restarting jwks pod would). */
  dropStreams(): void {
    for (const watcher of this.watchers) watcher.end();
    this.watchers.clear();
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  async serve(logger: Logger): Promise<{ address: string; stop: () => Promise<void> }> {
    const server = new GrpcServer({ logger });
    server.add<keys.KeysServiceServer>(keys.KeysServiceService, {
      watchSigningKey: (call: Watcher) => {
        this.watchers.add(call);
        call.on('cancelled', () => this.watchers.delete(call));
        call.write(this.message(this.active));
      },
      decryptRequestObject: notImplemented,
      rotateKeys: notImplemented,
      verifySignature: notImplemented,
      signLogoutToken: notImplemented,
    });
    const port = await server.start(0, '127.0.0.1');
    server.setServing(true);
    return {
      address: `127.0.0.1:${port}`,
      stop: async () => {
        this.dropStreams();
        await server.stop(500);
      },
    };
  }

  private generate(): TestKey {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = {
      kid: randomUUID(),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      // Strictly increasing, as the jwks service's activations are: two keys made in one ms stay ordered.
      activatedAt: Math.max(Date.now(), (this.all.at(-1)?.activatedAt ?? 0) + 1),
    };
    this.all.push(key);
    return key;
  }

  private message(key: TestKey): keys.WatchSigningKeyResponse {
    return {
      key: { kid: key.kid, alg: 'RS256', privateKeyPem: key.privateKeyPem, activatedAt: key.activatedAt },
    };
  }
}
