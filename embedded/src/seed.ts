export interface DemoSeed {
  tenantId: string;
  appId: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  credentialsId: string;
  apiSecret: string;
  /** The demo tenant's Owner: signs in to the console ({url}/console/) with an email code from /dev/mail. */
  ownerEmail: string;
}

/** The sample app (examples/rp, `npm run example`) serves these on http://localhost:3000. */
export const SAMPLE_APP_URL = 'http://localhost:3000';
export const DEMO_REDIRECT_URI = `${SAMPLE_APP_URL}/callback`;
/** Where the sample app's Sign out (RP-initiated logout) lands: its home page. */
export const DEMO_POST_LOGOUT_REDIRECT_URI = `${SAMPLE_APP_URL}/`;
/** The sample app's back-channel logout receiver (registered only where a loopback endpoint is allowed). */
export const DEMO_BACKCHANNEL_LOGOUT_URI = `${SAMPLE_APP_URL}/backchannel-logout`;
export const DEMO_OWNER_EMAIL = 'owner@example.com';

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

async function adminCall<T>(
  url: string,
  adminKey: string,
  path: string,
  body: unknown,
  fetchFn: Fetch = fetch,
): Promise<T> {
  const res = await fetchFn(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${adminKey}`,
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`demo seed: POST ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * True when the platform already has a tenant (the system tenant aside): the demo seed then does not run.
 * The bootstrap key refused (an Owner exists and break-glass is off) also means there are tenants.
 */
export async function hasTenants(url: string, adminKey: string, fetchFn: Fetch = fetch): Promise<boolean> {
  const res = await fetchFn(`${url}/api/v1/admin/tenants`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  if (res.status === 401 || res.status === 403) return true;
  if (!res.ok)
    throw new Error(`demo seed: GET /api/v1/admin/tenants answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { tenants: unknown[] }).tenants.length > 0;
}

/**
 * Seeds a demo tenant, application and API credentials through the admin API with the bootstrap key (events
 * say bootstrap-key), and the tenant's Owner: added directly, which only break-glass allows (the embedded
 * development default runs with it on), so a newcomer signs in to the console without an invitation.
 */
export interface DemoSeedOptions {
  /**
   * Register the sample app's back-channel logout receiver on the demo app: `npm start` asks for it where
   * mgmt accepts a loopback endpoint (development); tests leave it out so no delivery goes to port 3000.
   */
  backchannelLogout?: boolean;
  /** How the admin API is called: `npm start -- --https` passes one that trusts the local CA (ca-fetch.ts). */
  fetchFn?: Fetch;
}

export async function seedDemo(url: string, adminKey: string, opts: DemoSeedOptions = {}): Promise<DemoSeed> {
  const { tenantId } = await adminCall<{ tenantId: string }>(
    url,
    adminKey,
    '/api/v1/admin/tenants',
    {
      name: 'Demo',
    },
    opts.fetchFn,
  );
  const app = await adminCall<{ appId: string; clientId: string; clientSecret: string }>(
    url,
    adminKey,
    `/api/v1/admin/tenants/${tenantId}/applications`,
    // The demo app allows refresh tokens (offline_access), so a standard RP works end to end out of the box.
    // Its logout settings are the sample app's (examples/rp): Sign out lands on its home page.
    {
      name: 'Demo app',
      redirectUris: [DEMO_REDIRECT_URI],
      refreshTokens: { enabled: true },
      postLogoutRedirectUris: [DEMO_POST_LOGOUT_REDIRECT_URI],
      ...(opts.backchannelLogout ? { backchannelLogoutUri: DEMO_BACKCHANNEL_LOGOUT_URI } : {}),
    },
    opts.fetchFn,
  );
  const creds = await adminCall<{ credentialsId: string; apiSecret: string }>(
    url,
    adminKey,
    `/api/v1/admin/tenants/${tenantId}/credentials`,
    {},
    opts.fetchFn,
  );
  await adminCall(
    url,
    adminKey,
    `/api/v1/admin/tenants/${tenantId}/administrators`,
    { email: DEMO_OWNER_EMAIL, role: 'owner' },
    opts.fetchFn,
  );
  return {
    tenantId,
    appId: app.appId,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    redirectUri: DEMO_REDIRECT_URI,
    credentialsId: creds.credentialsId,
    apiSecret: creds.apiSecret,
    ownerEmail: DEMO_OWNER_EMAIL,
  };
}

/**
 * The demo seed on an empty platform only: undefined when a tenant exists (a restart of a durable store keeps
 * the demo tenant, ids and secrets of the start that seeded it; they are in the demo file).
 */
export async function seedDemoOnce(
  url: string,
  adminKey: string,
  opts: DemoSeedOptions = {},
): Promise<DemoSeed | undefined> {
  return (await hasTenants(url, adminKey, opts.fetchFn)) ? undefined : seedDemo(url, adminKey, opts);
}
