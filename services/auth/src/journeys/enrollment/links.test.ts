import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { EnrollmentLinks } from './links';

const grant = {
  tenantId: 't1',
  appId: 'a1',
  clientId: 'c1',
  userId: 'u1',
  purpose: 'device_enrollment' as const,
  redirectUri: 'https://rp.example/done',
};

describe('EnrollmentLinks', () => {
  it('keeps only an HMAC of the token at rest, never the token', async () => {
    const kv = new MemoryKeyValueStore();
    const links = new EnrollmentLinks(kv, { hashKey: 'k'.repeat(32), ttlMs: 60_000 });
    const { token } = await links.create(grant);
    const hash = createHmac('sha256', 'k'.repeat(32)).update(`enroll-link:${token}`).digest('base64url');
    const stored = await kv.get(`enroll-link:${hash}`);
    assert.ok(stored && !stored.includes(token));
    assert.equal(await kv.get(`enroll-link:${token}`), null);
  });

  it('is single use, even for concurrent takes', async () => {
    const links = new EnrollmentLinks(new MemoryKeyValueStore(), { hashKey: 'k'.repeat(32), ttlMs: 60_000 });
    const { token } = await links.create(grant);
    const taken = await Promise.all([links.take(token), links.take(token), links.take(token)]);
    assert.equal(taken.filter(Boolean).length, 1);
  });

  it('expires after its TTL, and refuses malformed and unknown tokens', async () => {
    const links = new EnrollmentLinks(new MemoryKeyValueStore(), { hashKey: 'k'.repeat(32), ttlMs: 50 });
    const { token } = await links.create(grant);
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(await links.take(token), undefined);
    for (const bad of ['', 'short', `${'a'.repeat(43)}/x`, 'a'.repeat(43)])
      assert.equal(await links.take(bad), undefined);
  });
});
