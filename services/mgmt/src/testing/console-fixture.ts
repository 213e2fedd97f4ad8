import type { AdminRole } from '../admins/model';
import type { MgmtOverrides } from '../service';
import { ConsoleBrowser, FakeProvider } from './fake-provider';
import { type MgmtHarness, startMgmt } from './mgmt-harness';

/** A running console: the fake OpenID Provider, mgmt signed in through it, and one tenant. */
export interface ConsoleFixture {
  h: MgmtHarness;
  provider: FakeProvider;
  tenantId: string;
}

/**
 * Starts a fake provider and mgmt, creates the tenant `tenantName` and, in order, its administrators
 * (createdAt 1, 2, …).
 */
export async function startConsole(
  admins: ReadonlyArray<readonly [email: string, role: AdminRole]>,
  tenantName = 'Acme',
  extra: Pick<MgmtOverrides, 'support'> = {},
): Promise<ConsoleFixture> {
  const provider = await new FakeProvider().start();
  const h = await startMgmt({ SESAME_AUTH_URL: provider.url }, extra);
  const tenantId = await h.createTenant(tenantName);
  for (const [i, [email, role]] of admins.entries()) {
    await h.admins.accounts.create({ tenantId, email, role, createdAt: i + 1 });
  }
  return { h, provider, tenantId };
}

export async function stopConsole({ h, provider }: Omit<ConsoleFixture, 'tenantId'>): Promise<void> {
  await h.stop();
  await provider.stop();
}

/** A console browser already signed in as `email`. */
export async function signedIn(
  { h, provider }: Omit<ConsoleFixture, 'tenantId'>,
  email: string,
): Promise<ConsoleBrowser> {
  const b = new ConsoleBrowser(h.url, provider);
  await b.signIn(email);
  return b;
}
