import type { EmbeddedStore } from '@sesame/embedded-store';
import type { EventBus } from '@sesame/events';
import type { KeyValueStore } from '@sesame/kv';
import { type Clock, type Logger, type ServiceModule, fastRouteHandler, systemClock } from '@sesame/platform';
import { keys } from '@sesame/proto';
import { openService } from '@sesame/runtime';
import express from 'express';
import { Gauge } from 'prom-client';
import { type JwksConfig, keyTimings } from './config';
import { decryptRequestObjectRpc } from './grpc/decrypt-request-object';
import { signLogoutTokenRpc, verifySignatureRpc } from './grpc/logout-rpcs';
import { rotateKeysRpc } from './grpc/rotate-keys';
import { SigningKeyStreams } from './grpc/watch-signing-key';
import { createKeyEncryptionKey } from './keys/key-encryption';
import { KeyManager } from './keys/key-manager';
import { type GenerateKeyMaterial, keyMaterialGenerator } from './keys/key-material';
import { type KeyRepository, MemoryKeyRepository } from './keys/key.repository';
import { MongoKeyRepository } from './keys/key.repository.mongo';
import { SqliteKeyRepository } from './keys/key.repository.sqlite';
import { jwksRoute } from './routes/jwks';

export interface JwksOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher (jwks publishes no events; accepted for symmetry). */
  bus?: EventBus;
  clock?: Clock;
  repository?: KeyRepository;
  generate?: GenerateKeyMaterial;
  /** The embedded launcher's durable engine: the keys are kept there when no Mongo URL is configured. */
  embedded?: EmbeddedStore;
  /** The KV the pods signal key changes through (tests: one in-memory store shared by several pods). */
  kv?: KeyValueStore;
}

/** The KV channel a pod signals on after it changed the key store; every jwks pod reloads its key ring at it. */
export const KEYS_CHANGED = 'keys:changed';

export async function createJwksService(
  config: JwksConfig,
  overrides: JwksOverrides = {},
): Promise<ServiceModule> {
  const needs = { mongo: true, kv: !overrides.kv };
  const { logger, metrics, stores } = await openService('jwks', config, needs, overrides);
  const clock = overrides.clock ?? systemClock;
  const kv = overrides.kv ?? stores.kv!;
  const keysLogger = logger.child({ component: 'keys' });
  let stopListening: (() => void) | undefined;
  try {
    const repo =
      overrides.repository ??
      (stores.mongo
        ? await MongoKeyRepository.open(stores.mongo)
        : stores.embedded
          ? new SqliteKeyRepository(stores.embedded)
          : new MemoryKeyRepository());
    const manager = new KeyManager({
      repo,
      kek: createKeyEncryptionKey(Buffer.from(config.SESAME_KEY_ENCRYPTION_KEY, 'base64url')),
      clock,
      timings: keyTimings(config),
      generate: overrides.generate ?? keyMaterialGenerator(clock),
      logger: keysLogger,
      // Best effort, like every KV signal: a pod that misses one still reloads on its poll.
      announce: () => {
        kv.signal(KEYS_CHANGED).catch((err) =>
          keysLogger.warn({ err }, 'could not signal the key change; other pods see it on their next poll'),
        );
      },
    });
    // Before serving anything: the first pod of an empty store creates the initial key pairs.
    await manager.reconcile();
    // SesameKeyRotationOverdue alerts on this (charts/sesame/files/alerts.yaml).
    new Gauge({
      name: 'sesame_signing_key_activated_timestamp_seconds',
      help: 'When the active signing key was activated (epoch seconds)',
      registers: [metrics.registry],
      collect() {
        const active = manager.activeSigningKey();
        if (active) this.set(active.activatedAt / 1000);
      },
    });
    const streams = new SigningKeyStreams(manager);
    const jwks = jwksRoute(manager);
    const routes = express.Router();
    routes.get(jwks.path, fastRouteHandler(jwks));
    return {
      name: 'jwks',
      logger,
      metrics,
      routes,
      fastRoutes: [jwks],
      grpc: (server) => {
        server.add<keys.KeysServiceServer>(keys.KeysServiceService, {
          watchSigningKey: streams.handle,
          decryptRequestObject: decryptRequestObjectRpc(manager),
          rotateKeys: rotateKeysRpc(manager),
          verifySignature: verifySignatureRpc(manager),
          signLogoutToken: signLogoutTokenRpc(manager, () => clock.now()),
        });
        server.onShutdown(() => streams.endAll());
      },
      // The KV only speeds up the switch between pods: a Redis outage must not take /jwks out of service.
      readiness: [
        ...stores.readiness.filter((check) => check.name !== 'redis'),
        {
          name: 'keys',
          check: async () => {
            if (!manager.activeSigningKey()) throw new Error('no active signing key');
          },
        },
      ],
      start: async () => {
        stopListening = await kv
          .listen(KEYS_CHANGED, () => {
            manager
              .refresh()
              .catch((err) => keysLogger.error({ err }, 'key ring reload failed; serving the last key set'));
          })
          .catch((err) => {
            keysLogger.warn({ err }, 'not listening for key changes; reloading on the poll only');
            return undefined;
          });
        manager.start(config.SESAME_KEY_POLL_INTERVAL_MS);
      },
      stop: async () => {
        stopListening?.();
        manager.stop();
        streams.endAll();
        await stores.close();
      },
    };
  } catch (err) {
    await stores.close();
    throw err;
  }
}
