import type { AdminRole } from '../admins/model';
import type { MgmtOverrides } from '../service';
import { ConsoleBrowser, FakeProvider } from './fake-provider';
import { type MgmtHarness, startMgmt } from './mgmt-harness';

/** A running console: the fake OpenID Provider, mgmt signed in through it, and one tenant. */
export interface ConsoleFixture {
  h: MgmtHarness;
  provider: FakeProvider;
  tenantId: string;
  /** Adds the administrator `email` with `role` to the tenant, straight to the store. */
  addAdministrator(email: string, role: AdminRole, createdAt: number): Promise<void>;
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
  extra: Pick<MgmtOverrides, 'support'> = {},
): Promise<ConsoleFixture> {
  const provider = await new FakeProvider().start();
  const h = await startMgmt({ SESAME_AUTH_URL: provider.url }, extra);
  const tenantId = await h.createTenant(tenantName);
  const addAdministrator = async (email: string, role: AdminRole, createdAt: number) => {
    await h.admins.accounts.create({ tenantId, email, role, createdAt });
  };
  for (const [i, [email, role]] of admins.entries()) await addAdministrator(email, role, i + 1);
  return { h, provider, tenantId, addAdministrator, stop: () => stopConsole({ h, provider }) };
}

/**
 * startConsole with an administrator `<name>@acme.test` of each role in `roles` (name → role), then `others`,
 * in order; the fixture has a console browser signed in as each of the first under its name
 * (`{ admin: 'administrator' }` gives `fixture.admin`, signed in as admin@acme.test).
 */
export async function startSignedInConsole<B extends string>(
  roles: Record<B, AdminRole>,
  others: ReadonlyArray<readonly [email: string, role: AdminRole]> = [],
): Promise<ConsoleFixture & Record<B, ConsoleBrowser>> {
  const names = Object.keys(roles) as B[];
  const fixture = await startConsole([
    ...names.map((name) => [`${name}@acme.test`, roles[name]] as const),
    ...others,
  ]);
  const browsers = {} as Record<B, ConsoleBrowser>;
  for (const name of names) browsers[name] = await signedIn(fixture, `${name}@acme.test`);
  return Object.assign(fixture, browsers);
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
  await fixture.addAdministrator('admin@acme.test', 'administrator', 1);
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
