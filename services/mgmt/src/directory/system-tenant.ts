import { createHmac } from 'node:crypto';
import { type Clock, sha256 } from '@sesame/platform';
import type { ClientSecretVault } from '../secrets/client-secret-vault';
import type { DirectoryRepositories } from './directory.repository';
import type { Application } from './model';

/** The built-in tenant whose users are the administrators, and its one application: the console. */
export const SYSTEM_TENANT_ID = 'sesame-system';
export const CONSOLE_CLIENT_ID = 'sesame-console';
const CONSOLE_APP_ID = 'sesame-console';

/**
 * The console's client secret: derived from the sealing key of the client-secret key ring (a secret every
 * mgmt pod shares), so each pod knows it without storing it anywhere. Rotating the ring changes it, and the
 * next start stores the new hash.
 */
export function consoleClientSecret(ring: Array<{ id: string; key: Buffer }>): string {
  const sealing = ring[0];
  if (!sealing) throw new Error('the client-secret key ring is empty');
  return createHmac('sha256', sealing.key).update('sesame-console-client-secret').digest('base64url');
}

/**
 * Makes sure the system tenant and the console application exist with the console's redirect URI and the
 * current secret: auth treats the console like any confidential client. Idempotent (every start).
 */
export async function ensureSystemTenant(deps: {
  dir: DirectoryRepositories;
  vault: ClientSecretVault;
  clock: Clock;
  redirectUri: string;
  /** {admin_url}/console/signed-out: the console's sign-out comes back there from auth's /logout. */
  postLogoutRedirectUri: string;
  clientSecret: string;
}): Promise<void> {
  const now = deps.clock.now();
  if (!(await deps.dir.tenants.get(SYSTEM_TENANT_ID))) {
    await deps.dir.tenants.create({
      tenantId: SYSTEM_TENANT_ID,
      name: 'Sesame',
      createdAt: now,
      updatedAt: now,
    });
  }
  const ids = { tenantId: SYSTEM_TENANT_ID, appId: CONSOLE_APP_ID, clientId: CONSOLE_CLIENT_ID };
  const secret = {
    clientSecretHash: sha256(deps.clientSecret),
    clientSecretSealed: deps.vault.seal(deps.clientSecret, ids),
  };
  const existing = await deps.dir.applications.get(SYSTEM_TENANT_ID, CONSOLE_APP_ID);
  if (!existing) {
    const app: Application = {
      ...ids,
      name: 'Sesame Console',
      clientType: 'confidential',
      ...secret,
      redirectUris: [deps.redirectUri],
      postLogoutRedirectUris: [deps.postLogoutRedirectUri],
      allowedScopes: ['openid', 'email'],
      ciba: { mode: 'poll', strictErrors: true },
      firstParty: true,
      createdAt: now,
      updatedAt: now,
    };
    await deps.dir.applications.create(app);
    return;
  }
  if (existing.clientSecretHash !== secret.clientSecretHash) {
    await deps.dir.applications.replaceSecret(SYSTEM_TENANT_ID, CONSOLE_APP_ID, {
      ...secret,
      updatedAt: now,
    });
  }
  if (
    !existing.redirectUris?.includes(deps.redirectUri) ||
    !existing.postLogoutRedirectUris?.includes(deps.postLogoutRedirectUri) ||
    existing.firstParty !== true
  ) {
    // A system tenant made before the console signed out through auth gets its post-logout URI here, and
    // one made before the console was first-party gets the flag.
    await deps.dir.applications.update(SYSTEM_TENANT_ID, CONSOLE_APP_ID, {
      redirectUris: [deps.redirectUri],
      postLogoutRedirectUris: [deps.postLogoutRedirectUri],
      firstParty: true,
      updatedAt: now,
    });
  }
}
