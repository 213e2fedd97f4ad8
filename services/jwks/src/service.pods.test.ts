import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type RunningService, createLogger, runStandalone } from '@sesame/platform';
import { loadJwksConfig } from './config';
import { MemoryKeyRepository } from './keys/key.repository';
import { createJwksService } from './service';
import { keysTestClient } from './testing/keys-test-client';

// Pods learn of a rotation made by another pod by reloading the shared store every poll interval.
const POLL_MS = 100;
const config = loadJwksConfig({
  SESAME_ENV: 'test',
  LOG_LEVEL: 'silent',
  SESAME_KEY_PUBLISH_DELAY_MS: '6000',
  SESAME_KEY_POLL_INTERVAL_MS: String(POLL_MS),
});

describe('GET /jwks on two pods sharing one key store', () => {
  const repository = new MemoryKeyRepository();
  const pods: RunningService[] = [];
  const bases: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const mod = await createJwksService(config, {
        logger: createLogger({ service: 'jwks', level: 'silent' }),
        repository,
      });
      const running = await runStandalone(mod, {
        httpPort: 0,
        grpcPort: 0,
        host: '127.0.0.1',
        shutdownTimeoutMs: 2000,
      });
      pods.push(running);
      bases.push(`http://127.0.0.1:${running.httpPort}`);
    }
  });
  afterAll(() => Promise.all(pods.map((p) => p.stop())));

  const jwksOf = async (base: string, ifNoneMatch?: string) => {
    const res = await fetch(`${base}/jwks`, ifNoneMatch ? { headers: { 'if-none-match': ifNoneMatch } } : {});
    return { status: res.status, etag: res.headers.get('etag')!, text: await res.text() };
  };

  it('both answer the new key set and ETag once the store has it: at once on the rotating pod, within a poll on the other', async () => {
    const [a, b] = [await jwksOf(bases[0]!), await jwksOf(bases[1]!)];
    assert.equal(a.etag, b.etag);
    assert.equal(a.text, b.text);
    assert.equal((await jwksOf(bases[1]!, b.etag)).status, 304);

    const client = keysTestClient(`127.0.0.1:${pods[0]!.grpcPort}`);
    const rotation = await client.rotateKeys({});
    client.close();
    const rotatedAt = Date.now();

    const onA = await jwksOf(bases[0]!, a.etag);
    assert.equal(onA.status, 200, 'the old ETag no longer matches on the rotating pod');
    assert.notEqual(onA.etag, a.etag);
    assert.ok(onA.text.includes(rotation.signingKid) && onA.text.includes(rotation.encryptionKid));

    // The other pod may first load the store between the two inserts of the rotation (sig, then enc).
    let onB = await jwksOf(bases[1]!, a.etag);
    while (onB.etag !== onA.etag && Date.now() - rotatedAt < 20 * POLL_MS) {
      await new Promise((r) => setTimeout(r, 10));
      onB = await jwksOf(bases[1]!, a.etag);
    }
    assert.equal(onB.status, 200, 'the other pod answers the new key set');
    assert.equal(onB.etag, onA.etag);
    assert.equal(onB.text, onA.text);
    for (const base of bases) assert.equal((await jwksOf(base, onA.etag)).status, 304);
  });
});
