// Test support only: the sid index of browser sessions, run against the in-memory and the Redis KV adapter.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import type { KeyValueStore } from '@sesame/kv';
import type { Request, Response } from 'express';
import { type BrowserSession, SessionManager, type SignedIn } from './browser-session';

const TTL_MS = 60_000;

/** A response that only collects Set-Cookie values (all SessionManager writes). */
function cookieSink() {
  const cookies: string[] = [];
  const res = {
    append: (_name: string, value: string) => {
      cookies.push(value);
      return res;
    },
  };
  return { res: res as unknown as Response, cookies };
}

const person = (sid: string, userId = 'user-1'): SignedIn => ({
  userId,
  tenantId: 'tenant-1',
  method: 'email_otp',
  authTime: 1_700_000_000_000,
  sid,
  clients: ['client-1'],
});

/**
 * Logout by id_token_hint finds a browser's session by the sid of its ID tokens, without the cookie: the
 * index lives as long as the session, follows it across rotations, and ends with it.
 */
export function sessionsBySidContract(adapter: string, make: () => KeyValueStore): void {
  describe(`browser sessions by sid: ${adapter}`, () => {
    const kv = make();
    const sessions = new SessionManager(kv, { ttlMs: TTL_MS, secure: false });
    afterAll(() => kv.close());

    /** A browser session signed in as `signedIn`, and its cookie header. */
    async function signedInSession(signedIn: SignedIn, from?: BrowserSession) {
      const started = from ?? (await sessions.startSession()).value;
      const sink = cookieSink();
      const session = await sessions.rotate(sink.res, started, signedIn);
      const cookie = sink.cookies.at(-1)!.split(';')[0]!;
      return { session, req: { headers: { cookie } } as Request };
    }

    it('finds a signed-in session by its sid, and the index lives as long as the session', async () => {
      const sid = randomBytes(16).toString('base64url');
      const { session } = await signedInSession(person(sid));
      const found = await sessions.findBySid(sid);
      assert.equal(found?.key, session.key);
      assert.deepEqual(found?.signedIn, person(sid));
      const [indexKey, recordKey] = await kvKeysOf(kv, session.key, sid);
      const [index, record] = await Promise.all([kv.ttlMs(indexKey), kv.ttlMs(recordKey)]);
      assert.ok(index !== null && record !== null);
      assert.ok(Math.abs(index - record) < 1_000, `index TTL ${index} ms, session TTL ${record} ms`);
      assert.ok(index <= TTL_MS && index > TTL_MS - 5_000);
      assert.equal(await sessions.findBySid(randomBytes(16).toString('base64url')), undefined);
    });

    it('follows the session across a rotation that keeps the sid; a rotation to another sid drops the old one', async () => {
      const sid = randomBytes(16).toString('base64url');
      const first = await signedInSession(person(sid));
      const again = await signedInSession(person(sid), first.session);
      assert.equal((await sessions.findBySid(sid))?.key, again.session.key);
      assert.notEqual(again.session.key, first.session.key);
      const otherSid = randomBytes(16).toString('base64url');
      const someoneElse = await signedInSession(person(otherSid, 'user-2'), again.session);
      assert.equal(await sessions.findBySid(sid), undefined, 'the old sid names no session any more');
      assert.equal((await sessions.findBySid(otherSid))?.key, someoneElse.session.key);
    });

    it('endStored ends the session for its cookie and its sid, once', async () => {
      const sid = randomBytes(16).toString('base64url');
      const { session, req } = await signedInSession(person(sid));
      assert.equal((await sessions.load(req))?.key, session.key);
      const ends = await Promise.all([sessions.endStored(session), sessions.endStored(session)]);
      assert.deepEqual(ends.sort(), [false, true], 'of two parallel ends exactly one ended it');
      assert.equal(await sessions.load(req), undefined);
      assert.equal(await sessions.findBySid(sid), undefined);
    });

    it("lists a person's signed-in sessions per tenant, newest first, with where and when; a rotation and an end keep the list true", async () => {
      const userId = `user-${randomBytes(6).toString('hex')}`;
      const who = (sid: string, tenantId = 'tenant-1'): SignedIn => ({ ...person(sid, userId), tenantId });
      const where = { device: laptopFacts, clientIp: '203.0.113.7' };
      const started = (await sessions.startSession()).value;
      const a = await sessions.rotate(cookieSink().res, started, who('sid-a'), where);
      const b = (await signedInSession(who('sid-b'))).session;
      await signedInSession(who('sid-c', 'tenant-2'));
      const listed = await sessions.listForUser('tenant-1', userId);
      assert.deepEqual(listed.map((s) => s.signedIn?.sid).sort(), ['sid-a', 'sid-b']);
      assert.deepEqual(listed.find((s) => s.key === a.key)?.seen?.device, laptopFacts);
      assert.equal(listed.find((s) => s.key === a.key)?.seen?.clientIp, '203.0.113.7');
      // The same person signing in again keeps the sid and its start; the old key leaves the index.
      const again = await sessions.rotate(cookieSink().res, a, who('sid-a'), where);
      const afterRotation = await sessions.listForUser('tenant-1', userId);
      assert.deepEqual(afterRotation.map((s) => s.key).sort(), [again.key, b.key].sort());
      assert.equal(afterRotation.find((s) => s.key === again.key)?.seen?.startedAt, a.seen?.startedAt);
      await sessions.endStored(b);
      assert.deepEqual(
        (await sessions.listForUser('tenant-1', userId)).map((s) => s.key),
        [again.key],
      );
      assert.deepEqual(await sessions.listForUser('tenant-1', 'nobody'), []);
    });
  });
}

const laptopFacts = {
  deviceName: 'Linux PC',
  osType: 'Linux',
  osVersion: 'Unknown',
  browserType: 'Chrome',
  browserVersion: '156.0',
};

/** The KV keys of a session record and of its sid index, as SessionManager names them. */
async function kvKeysOf(kv: KeyValueStore, key: string, sid: string): Promise<[string, string]> {
  const sidHash = createHash('sha256').update(sid).digest('base64url');
  const index = `session-sid:${sidHash}`;
  assert.equal(await kv.get(index), key, 'the index names the session record');
  return [index, `session:${key}`];
}
