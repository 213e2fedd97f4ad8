import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { serialize } from 'cookie';
import type { Request, Response } from 'express';
import { SessionManager } from './browser-session';
import { sessionsBySidContract } from './sessions-by-sid.contract';

const opts = { httpOnly: true, sameSite: 'lax', path: '/' } as const;

describe('browser session cookies for handlers that write headers themselves', () => {
  it('gives every session its own id and CSRF secret (256 bits each), across refills of the random pool', async () => {
    const sessions = new SessionManager(new MemoryKeyValueStore(), { ttlMs: 60_000, secure: false });
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { value, setCookie } = await sessions.startSession();
      const sid = /^sesame_session=([\w-]{43});/.exec(setCookie)?.[1];
      assert.ok(sid && /^[\w-]{43}$/.test(value.csrf));
      seen.add(sid).add(value.csrf);
    }
    assert.equal(seen.size, 400);
  });

  it('writes the cookies cookie.serialize writes: HttpOnly, SameSite=Lax, Path=/, __Host- and Secure on https', async () => {
    for (const secure of [false, true]) {
      const sessions = new SessionManager(new MemoryKeyValueStore(), { ttlMs: 8 * 3600_000, secure });
      const prefix = secure ? '__Host-' : '';
      const session = await sessions.startSession();
      const sid = session.setCookie.split(';')[0]!.split('=')[1]!;
      assert.equal(
        session.setCookie,
        serialize(`${prefix}sesame_session`, sid, { ...opts, secure, maxAge: 8 * 3600 }),
      );
      const device = sessions.newDevice();
      assert.equal(
        device.setCookie,
        serialize(`${prefix}sesame_device`, device.value, { ...opts, secure, maxAge: 400 * 24 * 3600 }),
      );
    }
  });

  it('stores nothing for an anonymous session: its cookie alone gives back its key and CSRF secret', async () => {
    const kv = new MemoryKeyValueStore();
    const writes: string[] = [];
    const set = kv.set.bind(kv);
    kv.set = (key, ...rest) => {
      writes.push(key);
      return set(key, ...rest);
    };
    const sessions = new SessionManager(kv, { ttlMs: 60_000, secure: false });
    const started = sessions.startSession();
    const cookie = started.setCookie.split(';')[0]!;
    assert.deepEqual(writes, []);
    assert.equal(started.value.createdAt, undefined);
    const loaded = await sessions.load({ headers: { cookie } } as Request);
    assert.deepEqual(loaded, started.value);
    assert.ok(sessions.csrfMatches(loaded!, started.value.csrf));
    assert.deepEqual(writes, []);
    // Another anonymous id has another key and secret; one changed character is no anonymous id at all.
    const other = sessions.startSession().value;
    assert.notEqual(other.key, started.value.key);
    assert.notEqual(other.csrf, started.value.csrf);
    const sid = cookie.split('=')[1]!;
    const changed = `${sid.slice(0, 5)}${sid[5] === 'A' ? 'B' : 'A'}${sid.slice(6)}`;
    assert.equal(
      await sessions.load({ headers: { cookie: `sesame_session=${changed}` } } as Request),
      undefined,
    );
  });

  it('keeps the anonymous id layout: an id minted by another version (a pod before a rolling upgrade) loads', async () => {
    // 24 random bytes, then the first 8 bytes of SHA-256(label ‖ those bytes); key and CSRF secret are hashes
    // of the id. Written out with createHash here, as the code before this layout's one-call hashes wrote it.
    const random = randomBytes(24);
    const tag = createHash('sha256').update('sesame anonymous browser session\n').update(random).digest();
    const sid = Buffer.concat([random, tag.subarray(0, 8)]).toString('base64url');
    const sessions = new SessionManager(new MemoryKeyValueStore(), { ttlMs: 60_000, secure: false });
    const loaded = await sessions.load({ headers: { cookie: `sesame_session=${sid}` } } as Request);
    assert.deepEqual(loaded, {
      key: createHash('sha256').update(sid).digest('base64url'),
      csrf: createHash('sha256').update('sesame anonymous session csrf\n').update(sid).digest('base64url'),
    });
  });

  it('never takes an ended signed-in session for an anonymous one: its cookie then names no session', async () => {
    const sessions = new SessionManager(new MemoryKeyValueStore(), { ttlMs: 60_000, secure: false });
    const cookies: string[] = [];
    const res = { append: (_: string, v: string) => cookies.push(v) } as unknown as Response;
    const signedIn = await sessions.rotate(res, sessions.startSession().value, {
      userId: 'user-1',
      tenantId: 'tenant-1',
      method: 'email_otp',
      authTime: 1,
      sid: 'sid-1',
    });
    const req = { headers: { cookie: cookies[0]!.split(';')[0]! } } as Request;
    assert.equal((await sessions.load(req))?.signedIn?.userId, 'user-1');
    assert.ok(typeof signedIn.createdAt === 'number');
    await sessions.endStored(signedIn);
    assert.equal(await sessions.load(req), undefined);
  });

  it('still loads an anonymous session stored by an earlier version (a fully random id with a record)', async () => {
    const kv = new MemoryKeyValueStore();
    const sessions = new SessionManager(kv, { ttlMs: 60_000, secure: false });
    const sid = randomBytes(32).toString('base64url');
    const key = createHash('sha256').update(sid).digest('base64url');
    await kv.set(`session:${key}`, JSON.stringify({ csrf: 'stored-csrf', createdAt: 7 }), { ttlMs: 60_000 });
    const loaded = await sessions.load({ headers: { cookie: `sesame_session=${sid}` } } as Request);
    assert.deepEqual(loaded, { key, csrf: 'stored-csrf', createdAt: 7 });
  });

  it('knows a device only by a well-formed id', () => {
    const sessions = new SessionManager(new MemoryKeyValueStore(), { ttlMs: 60_000, secure: false });
    const id = sessions.newDevice().value;
    assert.equal(sessions.knownDevice(sessions.cookiesOf(`sesame_device=${id}`)), id);
    assert.equal(sessions.knownDevice(sessions.cookiesOf('sesame_device=../../etc')), undefined);
    assert.equal(sessions.knownDevice(sessions.cookiesOf(undefined)), undefined);
  });
});

sessionsBySidContract('memory', () => new MemoryKeyValueStore());
