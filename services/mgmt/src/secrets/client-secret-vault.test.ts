import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ClientSecretVault } from './client-secret-vault';

const key = (fill: number) => Buffer.alloc(32, fill);
const app = { tenantId: 't1', appId: 'a1', clientId: 'c1' };

describe('ClientSecretVault', () => {
  it('opens what it sealed, and the envelope names the sealing key but not the secret', () => {
    const vault = new ClientSecretVault([{ id: 'k1', key: key(1) }]);
    const sealed = vault.seal('the-secret', app);
    assert.match(sealed, /^v1\.k1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.ok(!sealed.includes('the-secret'));
    assert.equal(vault.open(sealed, app), 'the-secret');
  });

  it('does not open a sealed value moved onto another application (bound by its additional data)', () => {
    const vault = new ClientSecretVault([{ id: 'k1', key: key(1) }]);
    const sealed = vault.seal('the-secret', app);
    assert.equal(vault.open(sealed, { ...app, appId: 'a2' }), undefined);
    assert.equal(vault.open(sealed, { ...app, tenantId: 't2' }), undefined);
    assert.equal(vault.open(sealed, { ...app, clientId: 'c2' }), undefined);
  });

  it('rotates: a new first key seals, an old key still opens; a key dropped from the ring no longer does', () => {
    const old = new ClientSecretVault([{ id: 'k1', key: key(1) }]);
    const sealedOld = old.seal('s', app);
    const rotated = new ClientSecretVault([
      { id: 'k2', key: key(2) },
      { id: 'k1', key: key(1) },
    ]);
    assert.equal(rotated.open(sealedOld, app), 's');
    assert.equal(ClientSecretVault.keyIdOf(rotated.seal('s', app)), 'k2');
    assert.equal(new ClientSecretVault([{ id: 'k2', key: key(2) }]).open(sealedOld, app), undefined);
  });

  it('refuses tampered, truncated and foreign envelopes instead of throwing', () => {
    const vault = new ClientSecretVault([{ id: 'k1', key: key(1) }]);
    const sealed = vault.seal('the-secret', app);
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[4]!, 'base64url');
    flipped[0]! ^= 1;
    parts[4] = flipped.toString('base64url');
    for (const bad of [parts.join('.'), sealed.slice(0, -4), 'v2.k1.a.b.c', 'garbage', `${sealed}.x`]) {
      assert.equal(vault.open(bad, app), undefined, bad);
    }
  });
});
