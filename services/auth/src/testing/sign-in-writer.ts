// A writer for the kill -9 test of auth's embedded stores: what a sign-in writes (a person, a device, a
// membership update, a passkey and its use), one sign-in after another, printing each user id once every
// write of that sign-in was answered, until it is killed.
import { EmbeddedStore } from '@sesame/embedded-store';
import { sqlitePasskeyStore } from '../passkeys/passkeys.sqlite';
import { sqliteUserStore } from '../users/users.sqlite';

const [dir, prefix] = process.argv.slice(2);
if (!dir || !prefix) throw new Error('usage: sign-in-writer <dir> <prefix>');
const engine = EmbeddedStore.open({ dir });
const store = sqliteUserStore(engine);
const passkeys = sqlitePasskeyStore(engine);
const facts = {
  deviceName: 'Mac',
  osType: 'macOS',
  osVersion: '15',
  browserType: 'Safari',
  browserVersion: '18',
};
for (let i = 0; ; i++) {
  const userId = `${prefix}-${i}`;
  await store.users.create({ userId, email: `${userId}@example.com`, createdAt: i });
  await store.devices.save({ userId, deviceId: `device-${userId}`, registeredAt: i, lastSeenAt: i, facts });
  await store.memberships.update('tenant-1', 'app-1', userId, (m) => ({
    ...(m ?? {
      tenantId: 'tenant-1',
      appId: 'app-1',
      userId,
      acrValues: [],
      confirmed: false,
      firstLoginAt: i,
    }),
    lastLoginAt: i,
    alias: `alias-${userId}`,
  }));
  await passkeys.create({
    credentialId: `cred-${userId}`,
    userId,
    deviceId: `device-${userId}`,
    publicKey: 'pQECAyYgASFYIA',
    counter: 0,
    transports: ['internal'],
    aaguid: '00000000-0000-0000-0000-000000000000',
    backupEligible: true,
    backedUp: false,
    createdAt: i,
    status: 'active',
  });
  await passkeys.recordUse(`cred-${userId}`, { counter: 1, backedUp: true, at: i });
  await new Promise<void>((resolve) => process.stdout.write(`${userId}\n`, () => resolve()));
}
