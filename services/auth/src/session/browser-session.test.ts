import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { serialize } from 'cookie';
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

  it('knows a device only by a well-formed id', () => {
    const sessions = new SessionManager(new MemoryKeyValueStore(), { ttlMs: 60_000, secure: false });
    const id = sessions.newDevice().value;
    assert.equal(sessions.knownDevice(sessions.cookiesOf(`sesame_device=${id}`)), id);
    assert.equal(sessions.knownDevice(sessions.cookiesOf('sesame_device=../../etc')), undefined);
    assert.equal(sessions.knownDevice(sessions.cookiesOf(undefined)), undefined);
  });
});

sessionsBySidContract('memory', () => new MemoryKeyValueStore());
