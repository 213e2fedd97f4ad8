import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { qrSvg } from '../steps/qr/qr-image';
import { MobileLinks, mobileLinkHash, sameLink } from './qr-links';

const opts = { ttlMs: 30_000, memoryMs: 1_800_000 };

describe('mobile links (desktop to mobile QR codes)', () => {
  it('carry 256 random bits and are stored only under their hash', async () => {
    const kv = new MemoryKeyValueStore();
    const { token, linkHash } = await new MobileLinks(kv, opts).issue('flow-1');
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.equal(linkHash, mobileLinkHash(token));
    assert.equal(await kv.get(`mobile-link:${linkHash}`), 'flow-1');
    assert.equal(await kv.get(`mobile-link:${token}`), null);
  });

  it('with a prefix live in their own keyspace: links of one prefix are unknown to another', async () => {
    const kv = new MemoryKeyValueStore();
    const enroll = new MobileLinks(kv, { ...opts, prefix: 'enroll-mobile-link' });
    const { token, linkHash } = await enroll.issue('flow-e');
    assert.equal(await kv.get(`enroll-mobile-link:${linkHash}`), 'flow-e');
    assert.deepEqual(await new MobileLinks(kv, opts).take(token), { state: 'unknown' });
    assert.equal((await enroll.take(token)).state, 'taken');
  });

  it('are taken once: the second open finds the link spent', async () => {
    const links = new MobileLinks(new MemoryKeyValueStore(), opts);
    const { token, linkHash } = await links.issue('flow-2');
    const opens = await Promise.all([links.take(token), links.take(token), links.take(token)]);
    assert.deepEqual(
      opens.filter((o) => o.state === 'taken'),
      [{ state: 'taken', flowId: 'flow-2', linkHash }],
    );
    assert.deepEqual(await links.take(token), { state: 'spent', flowId: 'flow-2' });
  });

  it('remember whose they are: a spent link names its tenant and app, and a link kept before (a bare flow id) still reads', async () => {
    const kv = new MemoryKeyValueStore();
    const links = new MobileLinks(kv, opts);
    const owner = { tenantId: 'tenant-1', appId: 'app-1', appName: 'Shop' };
    const { token } = await links.issue('flow-3', owner);
    assert.equal((await links.take(token)).state, 'taken');
    assert.deepEqual(await links.take(token), { state: 'spent', flowId: 'flow-3', owner });

    const old = await links.issue('flow-4');
    await links.take(old.token);
    assert.equal(await kv.get(`mobile-link-seen:${old.linkHash}`), 'flow-4', 'the format links had before');
    assert.deepEqual(await links.take(old.token), { state: 'spent', flowId: 'flow-4' });
  });

  it('expire after the open time (30 s): a later open finds the link spent, not taken', async () => {
    let now = 1_000_000;
    const links = new MobileLinks(new MemoryKeyValueStore(() => now), opts);
    const { token } = await links.issue('flow-3');
    now += 30_000;
    assert.deepEqual(await links.take(token), { state: 'spent', flowId: 'flow-3' });
  });

  it('answer unknown for a malformed or never-issued token', async () => {
    const links = new MobileLinks(new MemoryKeyValueStore(), opts);
    assert.deepEqual(await links.take('not-a-token'), { state: 'unknown' });
    assert.deepEqual(await links.take('A'.repeat(43)), { state: 'unknown' });
  });

  it('match only the link the flow shows now (sameLink)', async () => {
    const links = new MobileLinks(new MemoryKeyValueStore(), opts);
    const first = await links.issue('flow-4');
    const second = await links.issue('flow-4');
    assert.equal(sameLink(second.linkHash, second.linkHash), true);
    assert.equal(sameLink(second.linkHash, first.linkHash), false);
    assert.equal(sameLink(undefined, first.linkHash), false);
  });

  it('draw as an SVG QR code without inline style or script', async () => {
    const svg = await qrSvg('http://localhost/m/abc');
    assert.match(svg, /^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    assert.doesNotMatch(svg, /<script|style=/);
  });
});
