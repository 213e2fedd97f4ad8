import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, type RunningService, createLogger, runStandalone } from '@sesame/platform';
import { CompactEncrypt } from 'jose';
import { loadJwksConfig } from './config';
import { createJwksService } from './service';
import { keysTestClient } from './testing/keys-test-client';

const config = loadJwksConfig({
  SESAME_ENV: 'test',
  LOG_LEVEL: 'silent',
  // Long enough that the /jwks read right after RotateKeys happens before activation, even on a loaded machine.
  SESAME_KEY_PUBLISH_DELAY_MS: '6000',
  SESAME_KEY_POLL_INTERVAL_MS: '100',
});
const expectedJwksHeaders = {
  'content-type': 'application/json',
  'cache-control': 'no-store, must-revalidate',
  pragma: 'no-cache',
};
type Jwk = Record<string, string | string[]>;

describe('jwks service (in-memory store)', () => {
  let running: RunningService;
  let base: string;
  let client: ReturnType<typeof keysTestClient>;
  const getJwks = async () => {
    const res = await fetch(`${base}/jwks`);
    return { res, body: (await res.json()) as { keys: Jwk[] } };
  };

  let startedAt = 0;

  beforeAll(async () => {
    startedAt = Date.now();
    const mod = await createJwksService(config, {
      logger: createLogger({ service: 'jwks', level: 'silent' }),
    });
    running = await runStandalone(mod, {
      httpPort: 0,
      grpcPort: 0,
      // Metrics are served on the ops port only.
      opsPort: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 5000,
    });
    base = `http://127.0.0.1:${running.httpPort}`;
    client = keysTestClient(`127.0.0.1:${running.grpcPort}`);
  });
  afterAll(async () => {
    client.close();
    await running.stop();
  });

  it('exports when the active signing key was activated, for the rotation-overdue alert', async () => {
    const text = await (await fetch(`http://127.0.0.1:${running.opsPort}/metrics`)).text();
    const seconds = Number(
      /^sesame_signing_key_activated_timestamp_seconds\{[^}]*\} (\S+)$/m.exec(text)?.[1],
    );
    assert.ok(seconds * 1000 >= startedAt - 1000 && seconds * 1000 <= Date.now(), `activated at ${seconds}`);
  });

  it('GET /jwks answers the spec headers, the spec sig (RS256) and enc keys with exactly the spec members, and the PS256 and ES256 sig keys', async () => {
    const { res, body } = await getJwks();
    assert.equal(res.status, 200);
    for (const [name, value] of Object.entries(expectedJwksHeaders))
      assert.equal(res.headers.get(name), value, name);
    assert.deepEqual(Object.keys(body), ['keys']);
    assert.deepEqual(
      body.keys.map((k) => [k.kty, k.use, k.alg, k.e ?? k.crv]),
      [
        ['RSA', 'sig', 'RS256', 'AQAB'],
        ['RSA', 'sig', 'PS256', 'AQAB'],
        ['EC', 'sig', 'ES256', 'P-256'],
        ['RSA', 'enc', 'RSA-OAEP-256', 'AQAB'],
      ],
    );
    for (const key of body.keys) {
      assert.deepEqual(
        Object.keys(key).sort(),
        key.kty === 'EC'
          ? ['alg', 'crv', 'kid', 'kty', 'use', 'x', 'x5c', 'y']
          : ['alg', 'e', 'kid', 'kty', 'n', 'use', 'x5c'],
      );
      assert.equal(typeof key.kid, 'string');
      assert.ok(Array.isArray(key.x5c) && key.x5c.every((c) => typeof c === 'string'));
    }
  });

  it('GET /jwks carries the security headers and a request id like every express route', async () => {
    const [jwks, health] = await Promise.all([fetch(`${base}/jwks`), fetch(`${base}/healthz`)]);
    for (const name of [
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
    ]) {
      assert.equal(jwks.headers.get(name), health.headers.get(name), name);
    }
    const echoed = await fetch(`${base}/jwks`, { headers: { 'x-request-id': 'rp-42' } });
    assert.equal(echoed.headers.get('x-request-id'), 'rp-42');
  });

  it('WatchSigningKey streams the key published as sig in /jwks at once', async () => {
    const watch = client.watch();
    const [key] = await watch.next(1);
    watch.stream.cancel();
    const { body } = await getJwks();
    assert.equal(key?.kid, body.keys[0]?.kid);
    assert.equal(key?.alg, 'RS256');
    assert.match(key?.privateKeyPem ?? '', /^-----BEGIN PRIVATE KEY-----/);
    const [set] = watch.sets;
    assert.deepEqual(
      set?.map((k) => [k.alg, k.kid]),
      ['RS256', 'PS256', 'ES256'].map((alg) => [alg, body.keys.find((k) => k.alg === alg)?.kid]),
      'the same message carries the active key of every alg, each the one published in /jwks',
    );
    const derived = createPublicKey(key!.privateKeyPem).export({ format: 'jwk' });
    assert.equal(derived.n, body.keys[0]?.n);
  });

  it('DecryptRequestObject decrypts a JWE made for the published enc key, and refuses junk with INVALID_ARGUMENT', async () => {
    const { body } = await getJwks();
    const enc = body.keys.find((k) => k.use === 'enc')!;
    const jwe = await new CompactEncrypt(new TextEncoder().encode('{"client_id":"c1"}'))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: enc.kid as string })
      .encrypt(
        createPublicKey({ key: { kty: 'RSA', n: enc.n as string, e: enc.e as string }, format: 'jwk' }),
      );
    assert.deepEqual(await client.decryptRequestObject({ jwe }), {
      plaintext: '{"client_id":"c1"}',
      kid: enc.kid,
    });
    await assert.rejects(
      client.decryptRequestObject({ jwe: 'not-a-jwe' }),
      (err: { code: number; details: string }) => {
        assert.equal(err.code, GrpcStatus.INVALID_ARGUMENT);
        assert.match(err.details, /not a compact JWE/);
        return true;
      },
    );
  });

  it('RotateKeys publishes both new keys at once and the stream delivers the new signing key after the delay', async () => {
    const watch = client.watch();
    const [first] = await watch.next(1);
    const firstEnc = (await getJwks()).body.keys.find((k) => k.use === 'enc')?.kid;
    const rotation = await client.rotateKeys({});
    const { body } = await getJwks();
    assert.deepEqual(
      body.keys.filter((k) => k.alg === 'RS256' || k.use === 'enc').map((k) => `${k.use}:${k.kid}`),
      [`sig:${first?.kid}`, `sig:${rotation.signingKid}`, `enc:${firstEnc}`, `enc:${rotation.encryptionKid}`],
    );
    assert.deepEqual(
      body.keys.map((k) => k.alg),
      ['RS256', 'RS256', 'PS256', 'PS256', 'ES256', 'ES256', 'RSA-OAEP-256', 'RSA-OAEP-256'],
      'every alg has its pending key published beside its active one',
    );
    assert.ok(rotation.activatesAt > Date.now() - 1000);
    const [, second] = await watch.next(2);
    assert.equal(second?.kid, rotation.signingKid);
    assert.ok(Date.now() >= rotation.activatesAt, 'not streamed before the publish delay');
    const after = await getJwks();
    assert.deepEqual(
      after.body.keys.filter((k) => k.alg === 'RS256').map((k) => k.kid),
      [rotation.signingKid, first?.kid],
      'the retired key stays published',
    );
    watch.stream.cancel();
  });
});

describe('jwks service shutdown', () => {
  it('ends open WatchSigningKey streams at once instead of waiting for the drain timeout', async () => {
    const mod = await createJwksService(config, {
      logger: createLogger({ service: 'jwks', level: 'silent' }),
    });
    const running = await runStandalone(mod, {
      httpPort: 0,
      grpcPort: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 8000,
    });
    const client = keysTestClient(`127.0.0.1:${running.grpcPort}`);
    const watch = client.watch();
    await watch.next(1);
    const started = Date.now();
    await running.stop();
    assert.ok(Date.now() - started < 2000, `stop took ${Date.now() - started} ms`);
    assert.equal(watch.ended()?.code, GrpcStatus.OK);
    client.close();
  });
});
