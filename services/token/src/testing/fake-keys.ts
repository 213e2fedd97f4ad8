// Test support only: a Keys service that streams the signing keys it generates (RS256, rotated on demand,
// and one PS256 and one ES256 key unless told otherwise),
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

/** A key of another alg than RS256: generated once, streamed beside the RS256 key, never rotated. */
interface OtherAlgKey {
  alg: 'PS256' | 'ES256';
  kid: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

/**
 * The PS256 and ES256 pairs, made once per test process: they are never rotated, and a synchronous RSA key
 * generation in every harness blocked its event loop long enough (under a loaded run) for the harness's own
 * first gRPC call to miss its deadline.
 */
const otherAlgPairs = new Map<OtherAlgKey['alg'], Pick<OtherAlgKey, 'privateKeyPem' | 'publicKeyPem'>>();
function otherAlgPair(alg: OtherAlgKey['alg']): Pick<OtherAlgKey, 'privateKeyPem' | 'publicKeyPem'> {
  let pair = otherAlgPairs.get(alg);
  if (!pair) {
    const { privateKey, publicKey } =
      alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
    pair = {
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    otherAlgPairs.set(alg, pair);
  }
  return pair;
}

export class FakeKeys {
  private readonly all: TestKey[] = [];
  private readonly watchers = new Set<Watcher>();
  readonly others: OtherAlgKey[];

  /** `algs`: the signing algs beside RS256 (both by default; [] for a Keys service of RS256 only). */
  constructor(algs: ReadonlyArray<'PS256' | 'ES256'> = ['PS256', 'ES256']) {
    this.generate();
    this.others = algs.map((alg) => ({ alg, kid: randomUUID(), ...otherAlgPair(alg) }));
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
    for (const k of this.others) {
      const jwk = await exportJWK(await importSPKI(k.publicKeyPem, k.alg, { extractable: true }));
      keysOut.push({ ...jwk, kid: k.kid, use: 'sig', alg: k.alg });
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
    const signing = {
      kid: key.kid,
      alg: 'RS256',
      privateKeyPem: key.privateKeyPem,
      activatedAt: key.activatedAt,
    };
    const others = this.others.map((k) => ({
      kid: k.kid,
      alg: k.alg,
      privateKeyPem: k.privateKeyPem,
      activatedAt: 1,
    }));
    return { key: signing, keys: [signing, ...others] };
  }
}
