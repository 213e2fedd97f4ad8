// A writer for the kill -9 test of mgmt's SQLite repositories: creates a tenant, an application, an
// administrator and an invitation it then accepts, one after another, printing each once its write has been
// answered, until it is killed.
import { EmbeddedStore } from '@sesame/embedded-store';
import { sqliteAdmins } from '../admins/sqlite';
import { sqliteDirectory } from '../directory/directory.sqlite';

const [dir, prefix] = process.argv.slice(2);
if (!dir || !prefix) throw new Error('usage: sqlite-writer <dir> <prefix>');
const engine = EmbeddedStore.open({ dir });
const directory = sqliteDirectory(engine);
const admins = sqliteAdmins(engine);
const answered = (line: string) =>
  new Promise<void>((resolve) => process.stdout.write(`${line}\n`, () => resolve()));
for (let i = 0; ; i++) {
  const tenantId = `${prefix}-${i}`;
  await directory.tenants.create({ tenantId, name: tenantId, createdAt: i, updatedAt: i });
  await answered(`tenant ${tenantId}`);
  await directory.applications.create({
    tenantId,
    appId: tenantId,
    name: 'Shop',
    clientId: `client-${tenantId}`,
    clientType: 'confidential',
    clientSecretHash: 'hash-of-secret',
    redirectUris: ['https://shop.example/cb'],
    allowedScopes: ['openid'],
    ciba: { mode: 'poll', strictErrors: true },
    createdAt: i,
    updatedAt: i,
  });
  await answered(`app ${tenantId}`);
  await admins.accounts.create({ tenantId, email: 'owner@example.com', role: 'owner', createdAt: i });
  await answered(`admin ${tenantId}`);
  const invitation = {
    invitationId: tenantId,
    tenantId,
    email: 'new@example.com',
    role: 'support' as const,
    tokenHash: `hash-${tenantId}`,
    invitedBy: 'owner@example.com',
    createdAt: i,
    expiresAt: i + 1_000,
  };
  await admins.invitations.create(invitation);
  await admins.invitations.markAccepted(tenantId, i + 1);
  await answered(`accepted ${tenantId}`);
}
