import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { adminsContract } from './contract';
import type { Invitation } from './model';
import { sqliteAdmins } from './sqlite';

const engines = tempEngines('mgmt-admins');

adminsContract('sqlite', async () => sqliteAdmins(engines.open()));

describe('administrators on the embedded engine', () => {
  it('keeps accounts, open and voided invitations and personal tokens across a close and a new open', async () => {
    const dir = engines.dir();
    let engine = engines.open(dir);
    let repos = sqliteAdmins(engine);
    const owner = { tenantId: 't-1', email: 'o@example.com', role: 'owner' as const, createdAt: 1 };
    const invite = (invitationId: string, email: string): Invitation => ({
      invitationId,
      tenantId: 't-1',
      email,
      role: 'administrator',
      tokenHash: `hash-${invitationId}`,
      invitedBy: 'o@example.com',
      createdAt: 2,
      expiresAt: 1_000,
    });
    const token = {
      tokenId: 'k-1',
      tenantId: 't-1',
      email: 'o@example.com',
      name: 'ci',
      tokenHash: 'hash-k-1',
      createdAt: 3,
      expiresAt: 10_000,
    };
    await repos.accounts.create(owner);
    await repos.accounts.touch('t-1', 'o@example.com', 7);
    await repos.invitations.create(invite('i-open', 'a@example.com'));
    await repos.invitations.create(invite('i-void', 'b@example.com'));
    await repos.invitations.cancel('t-1', 'i-void', { at: 8, by: 'o@example.com', reason: 'cancelled' });
    await repos.tokens.create(token);
    await repos.tokens.touch('k-1', 9);
    engine.close();

    engine = engines.open(dir);
    repos = sqliteAdmins(engine);
    assert.deepEqual(await repos.accounts.get('t-1', 'o@example.com'), { ...owner, lastSignInAt: 7 });
    assert.equal(await repos.accounts.anyOwner(), true);
    assert.equal(await repos.invitations.markAccepted('i-void', 10), undefined, 'a voided one stays voided');
    assert.deepEqual(await repos.invitations.markAccepted('i-open', 10), {
      ...invite('i-open', 'a@example.com'),
      acceptedAt: 10,
    });
    assert.deepEqual(await repos.tokens.findByHash('hash-k-1'), { ...token, lastUsedAt: 9 });
    assert.equal(engine.versionOf('mgmt.admins'), 1);
  });
});
