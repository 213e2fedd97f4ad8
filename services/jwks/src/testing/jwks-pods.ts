import assert from 'node:assert/strict';
import type { KeyValueStore } from '@sesame/kv';
import { type RunningService, createLogger, runStandalone } from '@sesame/platform';
import { loadJwksConfig } from '../config';
import { MemoryKeyRepository } from '../keys/key.repository';
import { createJwksService } from '../service';
import { keysTestClient } from './keys-test-client';

export interface JwksAnswer {
  status: number;
  etag: string;
  text: string;
}

export interface JwksPods {
  /** GET /jwks of pod `i`, with If-None-Match when an ETag is given. */
  jwksOf(i: number, ifNoneMatch?: string): Promise<JwksAnswer>;
  /** RotateKeys on pod `i` over gRPC; resolves once that pod answered. */
  rotateOn(i: number): Promise<{ signingKid: string; encryptionKid: string }>;
  /** Polls pod `i` (every 10 ms, at most `withinMs`) until it answers `etag`; the last answer. */
  waitForEtag(i: number, etag: string, withinMs: number): Promise<JwksAnswer>;
  stop(): Promise<void>;
}

/**
 * Rotates the keys on pod `rotating`, then asserts every other pod answers the rotating pod's new key set and
 * ETag within `withinMs` (a fraction of the poll: only the KV signal makes that), refuses the old ETag a 304
 * and answers the new one 304.
 */
export async function assertEveryPodSwitchesAtOnce(
  p: JwksPods,
  pods: { rotating: number; others: number[] },
  withinMs: number,
): Promise<void> {
  const before = await p.jwksOf(pods.others[0]!);
  const rotation = await p.rotateOn(pods.rotating);
  const rotatedAt = Date.now();
  const onRotating = await p.jwksOf(pods.rotating, before.etag);
  assert.equal(onRotating.status, 200);
  assert.ok(
    onRotating.text.includes(rotation.signingKid) && onRotating.text.includes(rotation.encryptionKid),
  );
  for (const i of pods.others) {
    const answer = await p.waitForEtag(i, onRotating.etag, withinMs);
    assert.equal(answer.etag, onRotating.etag, `pod ${i} switched`);
    assert.equal(answer.text, onRotating.text);
    assert.equal((await p.jwksOf(i, before.etag)).status, 200, `pod ${i}: the old ETag no longer matches`);
    assert.equal((await p.jwksOf(i, onRotating.etag)).status, 304);
  }
  assert.ok(Date.now() - rotatedAt < 2 * withinMs, 'within a fraction of the one-minute poll');
}

/**
 * Jwks pods as replicas in Kubernetes: each its own service over one shared key store, reloading it every
 * `pollMs`; `kvOf(i)` is the KV pod i signals key changes through (none: each pod opens its own in-memory one,
 * so no signal crosses pods).
 */
export async function startJwksPods(opts: {
  count: number;
  pollMs: number;
  kvOf?: (i: number) => KeyValueStore;
}): Promise<JwksPods> {
  const config = loadJwksConfig({
    SESAME_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESAME_KEY_PUBLISH_DELAY_MS: '6000',
    SESAME_KEY_POLL_INTERVAL_MS: String(opts.pollMs),
  });
  const repository = new MemoryKeyRepository();
  const pods: RunningService[] = [];
  for (let i = 0; i < opts.count; i++) {
    const mod = await createJwksService(config, {
      logger: createLogger({ service: 'jwks', level: 'silent' }),
      repository,
      ...(opts.kvOf ? { kv: opts.kvOf(i) } : {}),
    });
    pods.push(
      await runStandalone(mod, { httpPort: 0, grpcPort: 0, host: '127.0.0.1', shutdownTimeoutMs: 2000 }),
    );
  }
  const jwksOf = async (i: number, ifNoneMatch?: string) => {
    const res = await fetch(
      `http://127.0.0.1:${pods[i]!.httpPort}/jwks`,
      ifNoneMatch ? { headers: { 'if-none-match': ifNoneMatch } } : {},
    );
    return { status: res.status, etag: res.headers.get('etag')!, text: await res.text() };
  };
  return {
    jwksOf,
    async rotateOn(i) {
      const client = keysTestClient(`127.0.0.1:${pods[i]!.grpcPort}`);
      try {
        return await client.rotateKeys({});
      } finally {
        client.close();
      }
    },
    async waitForEtag(i, etag, withinMs) {
      const since = Date.now();
      let answer = await jwksOf(i);
      while (answer.etag !== etag && Date.now() - since < withinMs) {
        await new Promise((r) => setTimeout(r, 10));
        answer = await jwksOf(i);
      }
      assert.ok(answer.etag, 'the pod answers an ETag');
      return answer;
    },
    stop: async () => {
      await Promise.all(pods.map((p) => p.stop()));
    },
  };
}
