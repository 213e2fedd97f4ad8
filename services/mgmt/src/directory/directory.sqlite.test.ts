import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { directoryContract, sampleApplication } from './directory.contract';
import { sqliteDirectory } from './directory.sqlite';

const engines = tempEngines('mgmt-directory');

directoryContract('sqlite', async () => sqliteDirectory(engines.open()));

describe('directory on the embedded engine', () => {
  it('keeps tenants, applications (secret hash and sealed copy), credentials and admins across a close and a new open', async () => {
    const dir = engines.dir();
    let engine = engines.open(dir);
    let repos = sqliteDirectory(engine);
    const tenant = { tenantId: 't-1', name: 'Acme', createdAt: 1, updatedAt: 2, blockedCountries: ['KP'] };
    const app = sampleApplication('t-1', {
      refreshTokens: { enabled: true, absoluteLifetimeS: 60, idleLifetimeS: 30 },
    });
    const credentials = {
      tenantId: 't-1',
      credentialsId: 'c-1',
      secretHash: 'sha256-of-secret',
      createdAt: 3,
    };
    await repos.tenants.create(tenant);
    await repos.applications.create(app);
    await repos.credentials.create(credentials);
    await repos.credentials.revoke('t-1', 'c-1', 9);
    await repos.admins.touch('owner@example.com', 5);
    engine.close();

    engine = engines.open(dir);
    repos = sqliteDirectory(engine);
    assert.deepEqual(await repos.tenants.get('t-1'), tenant);
    assert.deepEqual(await repos.applications.findByClientId(app.clientId), app);
    assert.deepEqual(await repos.credentials.findById('c-1'), { ...credentials, revokedAt: 9 });
    assert.deepEqual(await repos.admins.list(), [
      { email: 'owner@example.com', createdAt: 5, lastSeenAt: 5 },
    ]);
    await assert.rejects(repos.applications.create({ ...app, appId: 'other' }), /duplicate clientId/);
    assert.equal(engine.versionOf('mgmt.directory'), 1);
    assert.equal(engine.versionOf('mgmt.branding'), 1);
  });
});
