import type { startAuth } from './hosted-test-client';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/**
 * An admin's decision (what Users.BlockDevice records) on the device the user `email` first signed in on, in
 * the test client's tenant: `false` blocks it, `true` lets it in again.
 */
export async function setDeviceAccess(auth: Auth, email: string, allowAccess: boolean): Promise<void> {
  const user = await auth.users.users.findByEmail(email);
  const [device] = await auth.users.devices.listForUser(user!.userId);
  await auth.users.deviceAccess.set({
    tenantId: 'tenant-1',
    userId: user!.userId,
    deviceId: device!.deviceId,
    allowAccess,
    changedAt: Date.now(),
  });
}
