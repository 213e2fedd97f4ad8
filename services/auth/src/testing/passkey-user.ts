import type { Passkey } from '../passkeys/model';
import type { startAuth } from './hosted-test-client';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/**
 * A new user with `email`, a member of `tenantId`'s app `appId`, with an active passkey on another device (so
 * typing the address offers the phone). Returns the passkey's credential id.
 */
export async function memberWithPasskeyElsewhere(
  auth: Auth,
  email: string,
  { tenantId, appId }: { tenantId: string; appId: string },
): Promise<string> {
  const userId = crypto.randomUUID();
  await auth.users.users.create({ userId, email, createdAt: 1 });
  await auth.users.memberships.save({
    tenantId,
    appId,
    userId,
    acrValues: [],
    confirmed: true,
    firstLoginAt: 1,
    lastLoginAt: 1,
  });
  const passkey: Passkey = {
    credentialId: `cred-${userId}`,
    userId,
    deviceId: crypto.randomUUID(),
    publicKey: 'AQID',
    counter: 0,
    transports: ['internal'],
    aaguid: '00000000-0000-0000-0000-000000000000',
    backupEligible: true,
    backedUp: true,
    createdAt: 1,
    status: 'active',
  };
  await auth.passkeys.create(passkey);
  return passkey.credentialId;
}
