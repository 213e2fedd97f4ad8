import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { sampleClaims } from '../testing/sample-claims';
import { CodeStore } from './codes';

const grant = {
  tenantId: 't',
  appId: 'a',
  clientId: 'c',
  redirectUri: 'https://rp.example/cb',
  scope: 'openid',
  codeChallenge: 'challenge',
  flowId: 'f',
  claims: sampleClaims({}),
};

describe('CodeStore', () => {
  it('of 8 concurrent claims of one code exactly one wins, and the grant is gone after it', async () => {
    const codes = new CodeStore(new MemoryKeyValueStore(), { codeTtlMs: 60_000, tokenTtlMs: 3_600_000 });
    const code = await codes.issue(grant);
    const found = await codes.find(code);
    assert.ok(found);
    const wins = await Promise.all(Array.from({ length: 8 }, () => codes.claim(found)));
    assert.equal(wins.filter(Boolean).length, 1);
    assert.equal(await codes.find(code), null);
  });

  it('keeps the binding of a redeemed code and the tokens issued from it, for checking replays', async () => {
    const codes = new CodeStore(new MemoryKeyValueStore(), { codeTtlMs: 60_000, tokenTtlMs: 3_600_000 });
    const code = await codes.issue(grant);
    const found = (await codes.find(code))!;
    assert.equal(await codes.findRedeemed(code), null);
    await codes.claim(found);
    await codes.recordIssued(found, ['token-hash']);
    const redeemed = await codes.findRedeemed(code);
    assert.deepEqual(redeemed?.binding, {
      clientId: 'c',
      redirectUri: 'https://rp.example/cb',
      codeChallenge: 'challenge',
    });
    assert.deepEqual(await codes.registerReplay(redeemed!), ['token-hash']);
    assert.equal(
      await codes.recordIssued(found, ['token-hash']),
      true,
      'a later recordIssued sees the replay',
    );
  });
});
