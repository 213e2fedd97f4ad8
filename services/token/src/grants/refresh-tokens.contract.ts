import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import type { KeyValueStore } from '@sesame/kv';
import { sha256 } from '@sesame/platform';
import { sampleClaims } from '../testing/sample-claims';
import { type NewFamily, RefreshTokenStore, familyLive } from './refresh-tokens';
import type { RefreshFamily } from './types';

const HOUR = 3600_000;

/**
 * The behaviour of refresh token families on a KeyValueStore adapter; run on the in-memory store and on real
 * Redis, whose atomic SET NX, replace (SET XX KEEPTTL) and take (GETDEL) the rotation relies on.
 */
export function refreshTokenStoreContract(adapter: string, make: () => KeyValueStore): void {
  describe(`RefreshTokenStore on ${adapter}`, () => {
    const kv = make();
    const store = new RefreshTokenStore(kv);
    afterAll(() => kv.close());
    const grant = (over: Partial<NewFamily> = {}): NewFamily => ({
      tenantId: 'tenant-1',
      appId: 'app-1',
      clientId: 'client-1',
      sub: `user-${randomUUID()}`,
      scope: 'openid email offline_access',
      claims: sampleClaims({ email: 'j@example.com' }),
      login: { flowId: 'f', authenticatorId: '', deviceId: 'device-1', loginAt: 1 },
      absoluteExpiresAt: Date.now() + 24 * HOUR,
      idleLifetimeMs: HOUR,
      ...over,
    });
    const live = async (token: string) => {
      const found = await store.find(token);
      assert.ok(found?.family, 'a live family');
      return { ...found, family: found.family as RefreshFamily };
    };

    it('keeps only hashes: the token is no key and no value; the family holds the claim snapshot', async () => {
      const now = Date.now();
      const family = grant();
      const { token, familyId } = await store.start(family, now, { hash: 'a1', expiresAt: now + HOUR });
      assert.equal(await kv.get(`refresh:${token}`), null);
      const record = await kv.get(`refresh:${sha256(token)}`);
      assert.ok(record && !record.includes(token));
      const found = await live(token);
      assert.equal(found.familyId, familyId);
      assert.equal(found.clientId, 'client-1');
      assert.equal(found.family.current, sha256(token));
      assert.equal(found.family.claims.email, 'j@example.com');
      assert.deepEqual(found.family.accessTokens, [{ hash: 'a1', expiresAt: now + HOUR }]);
      const ttl = await kv.ttlMs(`refresh-family:${familyId}`);
      // The family lives until its absolute expiry (24 h after grant() read the clock, a moment after `now`).
      const lifetime = family.absoluteExpiresAt - now;
      assert.ok(
        ttl !== null && ttl > lifetime - 0.1 * HOUR && ttl <= lifetime,
        `family ttl ${ttl} of ${lifetime}`,
      );
    });

    it('a token is claimed once: of concurrent uses exactly one wins', async () => {
      const now = Date.now();
      const { token } = await store.start(grant(), now);
      const found = await live(token);
      const wins = await Promise.all([1, 2, 3, 4].map(() => store.claim(found, now)));
      assert.equal(wins.filter(Boolean).length, 1);
    });

    it('rotation makes the next token current and keeps the old one findable (for replay detection)', async () => {
      const now = Date.now();
      const { token } = await store.start(grant(), now);
      const found = await live(token);
      assert.equal(await store.claim(found, now), true);
      const next = await store.rotate(found.family, now + 1000, { hash: 'a2', expiresAt: now + HOUR });
      assert.ok(next);
      const rotated = await live(next);
      assert.equal(rotated.family.current, sha256(next));
      assert.equal(rotated.family.lastUsedAt, now + 1000);
      const old = await store.find(token);
      assert.equal(old?.familyId, rotated.familyId);
      assert.notEqual(old?.family?.current, sha256(token));
      assert.equal(await store.claim(found, now), false, 'the old token is used up');
      const kept = await kv.ttlMs(`refresh:${sha256(token)}`);
      assert.ok(
        kept !== null && kept <= HOUR && kept > HOUR - 60_000,
        `old record kept the idle hour: ${kept}`,
      );
      const current = await kv.ttlMs(`refresh:${sha256(next)}`);
      assert.ok(
        current !== null && current > 23 * HOUR,
        `the current token lives to the family's end: ${current}`,
      );
    });

    it('revoking a family ends every token of it and returns its live access tokens, once', async () => {
      const now = Date.now();
      const { token, familyId } = await store.start(grant(), now, { hash: 'a1', expiresAt: now + HOUR });
      assert.deepEqual(await store.revokeFamily(familyId), ['a1']);
      assert.equal((await store.find(token))?.family, null);
      assert.deepEqual(await store.revokeFamily(familyId), []);
    });

    it('a rotation that loses to a revocation reports it (null) and leaves the family revoked', async () => {
      const now = Date.now();
      const { token, familyId } = await store.start(grant(), now);
      const found = await live(token);
      await store.claim(found, now);
      await store.revokeFamily(familyId);
      assert.equal(await store.rotate(found.family, now, { hash: 'a3', expiresAt: now + HOUR }), null);
      assert.equal(await kv.get(`refresh-family:${familyId}`), null);
    });

    it('a user revocation ends the families started until then, by user, app or device', async () => {
      const now = Date.now();
      const sub = `user-${randomUUID()}`;
      const [a, b, c] = await Promise.all([
        store.start(grant({ sub }), now),
        store.start(grant({ sub, appId: 'app-2' }), now),
        store.start(
          grant({ sub, login: { flowId: 'f', authenticatorId: '', deviceId: 'dev-x', loginAt: 1 } }),
          now,
        ),
      ]);
      const ended = async (t: { token: string }) => store.endedForUser((await live(t.token)).family);
      assert.deepEqual([await ended(a), await ended(b), await ended(c)], [false, false, false]);
      await store.revokeUser({ tenantId: 'tenant-1', sub, deviceId: 'dev-x' }, now + 1);
      assert.deepEqual([await ended(a), await ended(b), await ended(c)], [false, false, true]);
      await store.revokeUser({ tenantId: 'tenant-1', sub, appId: 'app-2' }, now + 1);
      assert.deepEqual([await ended(a), await ended(b), await ended(c)], [false, true, true]);
      await store.revokeUser({ tenantId: 'tenant-1', sub }, now + 1);
      assert.deepEqual([await ended(a), await ended(b), await ended(c)], [true, true, true]);
      const later = await store.start(grant({ sub }), now + 2);
      assert.equal(await ended(later), false, 'a family started after the revocation lives');
      const otherTenant = await store.start(grant({ sub, tenantId: 'tenant-2' }), now);
      assert.equal(await ended(otherTenant), false, 'another tenant is not touched');
    });

    it('familyLive: before the absolute end and within the idle window only', () => {
      const family = {
        absoluteExpiresAt: 10 * HOUR,
        lastUsedAt: 5 * HOUR,
        idleLifetimeMs: HOUR,
      } as RefreshFamily;
      assert.equal(familyLive(family, 5.5 * HOUR), true);
      assert.equal(familyLive(family, 6 * HOUR), false);
      assert.equal(familyLive({ ...family, lastUsedAt: 9.5 * HOUR }, 10 * HOUR), false);
    });
  });
}
