import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { killAtRandom } from '@sesame/testing';
import { sqliteAdmins } from './admins/sqlite';
import { sqliteDirectory } from './directory/directory.sqlite';
import { type MgmtHarness, startMgmt } from './testing/mgmt-harness';

/**
 * mgmt built with the embedded default's durable engine (ServiceOverrides.embedded) chooses its SQLite
 * repositories: what the admin API created is there after mgmt is stopped, the engine closed, and both started
 * again on the same data directory (issue 36).
 */
describe('mgmt on the embedded engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-mgmt-embedded-'));
  const engines: EmbeddedStore[] = [];
  const harnesses: MgmtHarness[] = [];
  const start = async () => {
    const engine = EmbeddedStore.open({ dir });
    engines.push(engine);
    const h = await startMgmt({}, { embedded: engine });
    harnesses.push(h);
    return { engine, h };
  };
  afterAll(async () => {
    for (const h of harnesses) await h.stop().catch(() => {});
    for (const engine of engines) engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a tenant, its application (client id and secret still authenticate), API credentials, administrators, an invitation, a personal token and branding across a rebuild on the same data directory', async () => {
    const first = await start();
    let h = first.h;
    const tenantId = await h.createTenant('Acme');
    const tenantPath = `/api/v1/admin/tenants/${tenantId}`;
    const app = await h.createApp<{ appId: string; clientId: string; clientSecret: string }>(tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
    });
    const creds = (await (await h.admin('POST', `${tenantPath}/credentials`)).json()) as {
      credentialsId: string;
      apiSecret: string;
    };
    const added = await h.admin('POST', `${tenantPath}/administrators`, {
      email: 'colleague@example.com',
      role: 'administrator',
    });
    assert.equal(added.status, 201, await added.clone().text());
    const invited = await h.admin('POST', `${tenantPath}/invitations`, {
      email: 'new@example.com',
      role: 'support',
    });
    assert.equal(invited.status, 201, await invited.clone().text());
    const branded = await h.admin('PUT', `${tenantPath}/branding`, { displayName: 'ACME Shop' });
    assert.equal(branded.status, 200, await branded.clone().text());
    const ownerToken = await h.adminToken(tenantId, 'owner@example.com', 'owner');

    await h.stop();
    harnesses.length = 0;
    first.engine.close();
    h = (await start()).h;

    const tenant = await h.admin('GET', tenantPath);
    assert.equal(tenant.status, 200);
    assert.equal(((await tenant.json()) as { name: string }).name, 'Acme');
    const { client } = await h.directoryClient.authenticateClient({
      clientId: app.clientId,
      clientSecret: app.clientSecret,
    });
    assert.equal(client?.appId, app.appId, 'the client id and secret shown at creation still authenticate');
    assert.deepEqual(
      await h.directoryClient.authenticateApiCredentials({
        credentialsId: creds.credentialsId,
        secret: creds.apiSecret,
      }),
      { tenantId, credentialsId: creds.credentialsId },
    );
    const people = (await (await h.asToken(ownerToken, 'GET', `${tenantPath}/administrators`)).json()) as {
      administrators: { email: string; role: string }[];
      invitations: { email: string; role: string }[];
    };
    assert.deepEqual(
      people.administrators.map((a) => [a.email, a.role]).sort(),
      [
        ['colleague@example.com', 'administrator'],
        ['owner@example.com', 'owner'],
      ],
      "the administrators, and the Owner's personal token still acts",
    );
    assert.deepEqual(
      people.invitations.map((i) => [i.email, i.role]),
      [['new@example.com', 'support']],
    );
    const branding = (await (await h.admin('GET', `${tenantPath}/branding`)).json()) as {
      settings: { displayName?: string };
    };
    assert.equal(branding.settings.displayName, 'ACME Shop');
  });
});

describe("mgmt's SQLite repositories under kill -9", () => {
  it('lose no write that was answered (tenants, applications, administrators, accepted invitations; 3 kills at random points)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sesame-mgmt-kill-'));
    const writer = fileURLToPath(new URL('./testing/sqlite-writer.ts', import.meta.url));
    try {
      const answered = await killAtRandom({
        script: writer,
        dir,
        rounds: 3,
        killAfter: { min: 40, spread: 200 },
        child: 'the writer',
        unit: 'writes',
      });
      const engine = EmbeddedStore.open({ dir });
      const directory = sqliteDirectory(engine);
      const admins = sqliteAdmins(engine);
      const lost: string[] = [];
      for (const line of answered) {
        const [kind, id] = line.split(' ') as [string, string];
        const there =
          kind === 'tenant'
            ? await directory.tenants.get(id)
            : kind === 'app'
              ? await directory.applications.findByClientId(`client-${id}`)
              : kind === 'admin'
                ? await admins.accounts.get(id, 'owner@example.com')
                : (await admins.invitations.get(id, id))?.acceptedAt;
        if (!there) lost.push(line);
      }
      engine.close();
      assert.deepEqual(lost, []);
      assert.ok(answered.length >= 120);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
