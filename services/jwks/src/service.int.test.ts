import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { connectMongo } from '@sesame/mongo';
import { type RunningService, createLogger, runStandalone } from '@sesame/platform';
import { eventually, isolatedMongoUrl, realServers } from '@sesame/testing';
import { loadJwksConfig } from './config';
import { createJwksService } from './service';
import { keysTestClient } from './testing/keys-test-client';

const mongoUrl = isolatedMongoUrl(realServers().mongoUrl, `jwks-svc-${randomUUID().slice(0, 8)}`);
const config = loadJwksConfig({
  SESAME_ENV: 'test',
  LOG_LEVEL: 'silent',
  SESAME_MONGO_URL: mongoUrl,
  SESAME_KEY_PUBLISH_DELAY_MS: '3000',
  SESAME_KEY_POLL_INTERVAL_MS: '200',
});
type Jwk = { kid: string; use: string; kty: string; alg: string };

/** Two jwks pods on one Mongo database, as two replicas in Kubernetes. */
describe('jwks service on Mongo, two pods', () => {
  const pods: RunningService[] = [];
  const clients: Array<ReturnType<typeof keysTestClient>> = [];
  const jwksOf = async (pod: RunningService) => {
    const res = await fetch(`http://127.0.0.1:${pod.httpPort}/jwks`);
    assert.equal(res.headers.get('cache-control'), 'no-store, must-revalidate');
    return ((await res.json()) as { keys: Jwk[] }).keys;
  };

  beforeAll(async () => {
    const start = async () => {
      const mod = await createJwksService(config, {
        logger: createLogger({ service: 'jwks', level: 'silent' }),
      });
      return runStandalone(mod, { httpPort: 0, grpcPort: 0, host: '127.0.0.1', shutdownTimeoutMs: 3000 });
    };
    pods.push(...(await Promise.all([start(), start()])));
    for (const pod of pods) clients.push(keysTestClient(`127.0.0.1:${pod.grpcPort}`));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all(pods.map((p) => p.stop()));
    const conn = await connectMongo(mongoUrl, { appName: 'jwks-int-cleanup' });
    await conn.dropDatabase();
    await conn.close();
  });

  it('two pods starting on an empty store create one key per slot between them and publish the same /jwks', async () => {
    const [a, b] = await Promise.all(pods.map(jwksOf));
    assert.deepEqual(
      a?.map((k) => [k.use, k.alg]),
      [
        ['sig', 'RS256'],
        ['sig', 'PS256'],
        ['sig', 'ES256'],
        ['enc', 'RSA-OAEP-256'],
      ],
    );
    assert.deepEqual(b, a);
  });

  it('keeps private keys in Mongo only sealed (AES-256-GCM), never in clear', async () => {
    const conn = await connectMongo(mongoUrl, { appName: 'jwks-int-inspect' });
    try {
      const docs = await conn.db!.collection('jwks_keys').find({}).toArray();
      assert.equal(docs.length, 4, 'one key per slot, no duplicate from the two pods');
      const raw = JSON.stringify(docs);
      assert.doesNotMatch(raw, /PRIVATE KEY/);
      for (const doc of docs) {
        assert.deepEqual(Object.keys(doc.privateKeyEnc).sort(), ['ciphertext', 'iv', 'kekId', 'tag']);
      }
      const watch = clients[0]!.watch();
      const [key] = await watch.next(1);
      watch.stream.cancel();
      const pemBody = key!.privateKeyPem.split('\n').slice(1, -2).join('');
      assert.equal(raw.includes(pemBody.slice(0, 64)), false);
    } finally {
      await conn.close();
    }
  });

  it('rotate: both sig keys are published on both pods, then both streams deliver the new key', async () => {
    const watches = clients.map((c) => c.watch());
    const firsts = await Promise.all(watches.map((w) => w.next(1)));
    const oldKid = firsts[0]![0]!.kid;
    assert.equal(firsts[1]![0]!.kid, oldKid);

    const rotation = await clients[0]!.rotateKeys({});
    const sigKids = (keys: Jwk[]) => keys.filter((k) => k.alg === 'RS256').map((k) => k.kid);
    assert.deepEqual(sigKids(await jwksOf(pods[0]!)), [oldKid, rotation.signingKid]);
    const onB = await eventually(
      () => jwksOf(pods[1]!),
      (keys) => keys.length === 8,
      5000,
    );
    assert.deepEqual(
      sigKids(onB),
      [oldKid, rotation.signingKid],
      'the other pod publishes the new key before it signs',
    );

    const seconds = await Promise.all(watches.map((w) => w.next(2)));
    for (const received of seconds) assert.equal(received[1]?.kid, rotation.signingKid);
    assert.ok(Date.now() >= rotation.activatesAt);
    for (const pod of pods) {
      assert.deepEqual(
        sigKids(await jwksOf(pod)),
        [rotation.signingKid, oldKid],
        'the retired key stays published',
      );
    }
    for (const w of watches) w.stream.cancel();
  });
});
