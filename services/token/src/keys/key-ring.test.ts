import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createLogger } from '@sesame/platform';
import { eventually } from '@sesame/testing';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { signIdToken } from '../id-token/sign-id-token';
import { FakeKeys } from '../testing/fake-keys';
import { KeyRing } from './key-ring';
import { watchSigningKey } from './watch-signing-key';

const logger = createLogger({ service: 'key-ring-test', level: 'silent' });
const claims = {
  iss: 'i',
  sub: 's',
  aud: 'a',
  exp: 2e9,
  iat: 1e9,
  auth_time: 1e9,
  acr: '',
  amr: [],
} as never;

describe('KeyRing fed by Keys.WatchSigningKey', () => {
  let keys: FakeKeys;
  let server: { address: string; stop: () => Promise<void> };
  beforeAll(async () => {
    keys = new FakeKeys();
    server = await keys.serve(logger);
  });
  afterAll(() => server.stop());

  it('refuses to sign before a key arrived', () => {
    const ring = new KeyRing();
    assert.equal(ring.has(), false);
    assert.throws(() => ring.current(), /no RS256 signing key/);
  });

  it('signs with the streamed key and switches on rotation without a failed signature', async () => {
    const ring = new KeyRing();
    const watch = watchSigningKey({ address: server.address, ring, logger });
    try {
      await eventually(async () => ring.has(), Boolean, 5000);
      const firstKid = keys.active.kid;
      assert.equal(ring.current().kid, firstKid);
      let failures = 0;
      const signed: string[] = [];
      let rotated = false;
      const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid;
      const signing = (async () => {
        // Signs continuously until 20 tokens carry the new key (or 5 s pass).
        const deadline = Date.now() + 5000;
        while (
          Date.now() < deadline &&
          signed.filter((jwt) => rotated && kidOf(jwt) !== firstKid).length < 20
        ) {
          try {
            signed.push(await signIdToken(ring, claims));
          } catch {
            failures++;
          }
        }
      })();
      await eventually(
        async () => signed.length,
        (n) => n >= 10,
        5000,
      );
      const next = keys.rotate();
      rotated = true;
      await signing;
      assert.equal(failures, 0);
      const kids = signed.map(kidOf);
      assert.ok(kids.includes(firstKid), 'tokens signed before the rotation use the first key');
      assert.ok(
        kids.filter((kid) => kid === next.kid).length >= 20,
        'tokens signed after it use the new key',
      );
      assert.ok(kids.every((kid) => kid === firstKid || kid === next.kid));
      const jwks = createLocalJWKSet(await keys.jwks());
      for (const jwt of signed) await jwtVerify(jwt, jwks, { algorithms: ['RS256'] });
    } finally {
      watch.stop();
    }
  });

  it('reconnects when the stream ends and receives later rotations', async () => {
    const ring = new KeyRing();
    const watch = watchSigningKey({
      address: server.address,
      ring,
      logger,
      minBackoffMs: 20,
      maxBackoffMs: 100,
    });
    try {
      await eventually(async () => ring.has(), Boolean, 5000);
      keys.dropStreams();
      await eventually(
        async () => keys.watcherCount,
        (n) => n === 1,
        5000,
      );
      const next = keys.rotate();
      const kid = await eventually(
        async () => ring.current().kid,
        (k) => k === next.kid,
        5000,
      );
      assert.equal(kid, next.kid);
    } finally {
      watch.stop();
    }
  });

  it('never lets an older key overwrite a newer one, whichever arrives last', async () => {
    const a = new FakeKeys();
    const first = a.active;
    const second = a.rotate();
    const msg = (k: typeof first, activatedAt: number) => ({
      kid: k.kid,
      alg: 'RS256',
      privateKeyPem: k.privateKeyPem,
      activatedAt,
    });
    const newerFirst = new KeyRing();
    await newerFirst.accept(msg(second, 2_000));
    await newerFirst.accept(msg(first, 1_000));
    assert.equal(newerFirst.current().kid, second.kid);
    const olderFirst = new KeyRing();
    await Promise.all([olderFirst.accept(msg(first, 1_000)), olderFirst.accept(msg(second, 2_000))]);
    assert.equal(olderFirst.current().kid, second.kid);
  });

  it('keeps the newer key when a lagging Keys stream sends an older one after reconnecting', async () => {
    const lagging = new FakeKeys();
    const lagServer = await lagging.serve(logger);
    const ring = new KeyRing();
    const accepted: Array<Promise<unknown>> = [];
    const accept = ring.accept.bind(ring);
    ring.accept = (key) => {
      const done = accept(key);
      accepted.push(done);
      return done;
    };
    const watch = watchSigningKey({ address: lagServer.address, ring, logger, minBackoffMs: 20 });
    try {
      const older = lagging.active;
      const newer = lagging.rotate();
      await eventually(
        async () => ring.has() && ring.current().kid,
        (kid) => kid === newer.kid,
        5000,
      );
      lagging.dropStreams();
      await eventually(
        async () => lagging.watcherCount,
        (n) => n === 1,
        5000,
      );
      const before = accepted.length;
      lagging.resend(older);
      await eventually(
        async () => accepted.length,
        (n) => n >= before + 1,
        5000,
      );
      await Promise.allSettled(accepted);
      assert.equal(ring.current().kid, newer.kid);
    } finally {
      watch.stop();
      await lagServer.stop();
    }
  });

  it('refuses a key with another algorithm and keeps the current one', async () => {
    const ring = new KeyRing();
    const k = keys.active;
    await ring.accept({ kid: k.kid, alg: 'RS256', privateKeyPem: k.privateKeyPem, activatedAt: 0 });
    await assert.rejects(
      ring.accept({ kid: 'x', alg: 'HS256', privateKeyPem: 'x', activatedAt: 0 }),
      /unsupported/,
    );
    assert.equal(ring.current().kid, k.kid);
  });
});
