import type { AdminRole } from '../admins/model';
import { ConsoleBrowser, FakeProvider } from './fake-provider';
import { type MgmtHarness, startMgmt } from './mgmt-harness';

/** A running console: the fake OpenID Provider, mgmt signed in through it, and one tenant. */
export interface ConsoleFixture {
  h: MgmtHarness;
  provider: FakeProvider;
  tenantId: string;
  /** Stops mgmt, then the provider (stopConsole). */
  stop(): Promise<void>;
}

/**
 * Starts a fake provider and mgmt, creates the tenant `tenantName` and, in order, its administrators
 * (createdAt 1, 2, …).
 */
export async function startConsole(
  admins: ReadonlyArray<readonly [email: string, role: AdminRole]>,
  tenantName = 'Acme',
): Promise<ConsoleFixture> {
  const provider = await new FakeProvider().start();
  const h = await startMgmt({ SESAME_AUTH_URL: provider.url });
  const tenantId = await h.createTenant(tenantName);
  for (const [i, [email, role]] of admins.entries()) {
    await h.admins.accounts.create({ tenantId, email, role, createdAt: i + 1 });
  }
  return { h, provider, tenantId, stop: () => stopConsole({ h, provider }) };
}

/**
 * startConsole, then a console browser signed in for each of `browsers` (name → administrator email), in
 * order: the fixture has each as a field of that name (`{ admin: 'admin@acme.test' }` gives `fixture.admin`).
 */
export async function startSignedInConsole<B extends string>(
  admins: ReadonlyArray<readonly [email: string, role: AdminRole]>,
  browsers: Record<B, string>,
  tenantName = 'Acme',
): Promise<ConsoleFixture & Record<B, ConsoleBrowser>> {
  const fixture = await startConsole(admins, tenantName);
  const signedInAs = {} as Record<B, ConsoleBrowser>;
  for (const [name, email] of Object.entries(browsers) as Array<[B, string]>) {
    signedInAs[name] = await signedIn(fixture, email);
  }
  return Object.assign(fixture, signedInAs);
}

/** One application of a console tenant, as the admin API created it, and the administrator who manages it. */
export interface ApplicationConsole extends ConsoleFixture {
  appId: string;
  clientId: string;
  /** The client secret the application was created with. */
  firstSecret: string;
  /** Signed in as admin@acme.test, an administrator of the tenant. */
  admin: ConsoleBrowser;
}

/** A console whose tenant Acme has the confidential application Shop (redirect https://shop.test/cb). */
export async function startApplicationConsole(): Promise<ApplicationConsole> {
  const fixture = await startConsole([]);
  const { h, tenantId } = fixture;
  const created = (await (
    await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/applications`, {
      name: 'Shop',
      redirectUris: ['https://shop.test/cb'],
    })
  ).json()) as { appId: string; clientId: string; clientSecret: string };
  await h.admins.accounts.create({ tenantId, email: 'admin@acme.test', role: 'administrator', createdAt: 1 });
  const admin = await signedIn(fixture, 'admin@acme.test');
  return {
    ...fixture,
    appId: created.appId,
    clientId: created.clientId,
    firstSecret: created.clientSecret,
    admin,
  };
}

export async function stopConsole({ h, provider }: Pick<ConsoleFixture, 'h' | 'provider'>): Promise<void> {
  await h.stop();
  await provider.stop();
}

/** A console browser already signed in as `email`. */
export async function signedIn(
  { h, provider }: Pick<ConsoleFixture, 'h' | 'provider'>,
  email: string,
): Promise<ConsoleBrowser> {
  const b = new ConsoleBrowser(h.url, provider);
  await b.signIn(email);
  return b;
}
