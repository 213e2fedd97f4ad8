// Support for hosted-signin.e2e.test.ts: the RP (openid-client v6), the callback catcher, and reading
// sign-in mail from the tests' SMTP server.
import assert from 'node:assert/strict';
import { type MailboxMessage, clientCredentialsToken, eventually, mailbox } from '@sesame/testing';
import { type BrowserContext, type Page, virtualAuthenticator } from '@sesame/testing/browser';
import * as oidc from 'openid-client';

export const callbackOrigin = 'http://localhost:3000';

/** openid-client configured for the demo app (client_secret_basic; http on localhost needs allowInsecureRequests). */
export async function rpConfig(issuer: string, clientId: string, clientSecret: string) {
  const config = await oidc.discovery(
    new URL(issuer),
    clientId,
    clientSecret,
    oidc.ClientSecretBasic(clientSecret),
    { execute: [oidc.allowInsecureRequests] },
  );
  // Verify the ID token's JWS against jwks_uri too (openid-client skips it by default for TLS responses).
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** One authorization request as the RP makes it: PKCE S256, state and nonce, plus any extra parameters. */
export async function authorizationRequest(
  config: oidc.Configuration,
  redirectUri: string,
  extra: Record<string, string> = {},
) {
  const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, pkceCodeVerifier, state, nonce };
}

/** The RP's side: redeems the callback's code with PKCE, state and nonce; openid-client verifies the ID token. */
export async function redeemCallback(
  config: oidc.Configuration,
  callbackUrl: string,
  req: Awaited<ReturnType<typeof authorizationRequest>>,
): Promise<oidc.IDToken> {
  const tokens = await oidc.authorizationCodeGrant(config, new URL(callbackUrl), {
    pkceCodeVerifier: req.pkceCodeVerifier,
    expectedState: req.state,
    expectedNonce: req.nonce,
  });
  const claims = tokens.claims();
  assert.ok(claims, 'the token response carries an ID token');
  return claims;
}

/**
 * Nothing listens on the RP's redirect_uri: every request there is answered with a tiny page, and its URL is
 * recorded. `next()` resolves with the next callback URL the context navigates to.
 */
export async function catchCallbacks(context: BrowserContext) {
  const seen: string[] = [];
  const waiters: ((url: string) => void)[] = [];
  await context.route(`${callbackOrigin}/**`, async (route) => {
    const url = route.request().url();
    seen.push(url);
    waiters.shift()?.(url);
    await route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><head><title>RP callback</title></head><body><main><h1>Back at the app</h1></main></body></html>',
    });
  });
  return {
    seen,
    next: (timeoutMs = 30_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no callback within ${timeoutMs} ms`)), timeoutMs);
        waiters.push((url) => {
          clearTimeout(timer);
          resolve(url);
        });
      }),
  };
}

/**
 * One browser of a passkey test: the context's RP callbacks caught, a page open in it, and a DevTools virtual
 * authenticator on that page (a desktop's or a phone's, as the context is).
 */
export async function passkeyBrowser(context: BrowserContext) {
  const callbacks = await catchCallbacks(context);
  const page = await context.newPage();
  const authenticator = await virtualAuthenticator(page);
  return { context, callbacks, page, authenticator };
}

/** A fresh address per test, so users and mail of earlier runs never mix in. */
export const freshEmail = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;

const waitMail = (to: string, after: Date): Promise<MailboxMessage> =>
  mailbox().waitForMessageTo(to, { timeoutMs: 15_000, after });

/** The 6-digit code of the newest sign-in mail to `to` received at or after `after`. */
export async function mailedCode(to: string, after: Date): Promise<string> {
  const mail = await waitMail(to, after);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no 6-digit code in the mail "${mail.subject}": ${mail.text}`);
  return code;
}

/** The hosted pages' email step: the address, Continue; returns when the code was mailed (for mailedCode). */
export async function identify(page: Page, address: string): Promise<Date> {
  const sentAfter = new Date();
  await page.getByLabel('Email address').fill(address);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Verification code').waitFor();
  return sentAfter;
}

/** The magic link of the newest sign-in mail to `to` received at or after `after`. */
export async function mailedLink(to: string, after: Date): Promise<string> {
  const mail = await waitMail(to, after);
  const link = /(https?:\/\/\S+\/link\/[\w-]+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no magic link in the mail "${mail.subject}": ${mail.text}`);
  return link;
}

/** The form's CSRF token and action on the page as it is now. */
export async function formOf(page: Page, selector = 'form') {
  const form = page.locator(selector).first();
  const action = new URL((await form.getAttribute('action')) ?? '', page.url()).href;
  const csrf = (await form.locator('input[name="csrf"]').getAttribute('value')) ?? '';
  return { action, csrf };
}

/** One activity log record (spec 2.4) as the management API returns it. */
export interface ActivityLogRecord {
  id: string;
  userId?: string;
  applicationId: string;
  businessUnit: string;
  timestamp: number;
  accessingDevice?: string;
  accessingDeviceInfo?: Record<string, string>;
  accessingDeviceLocation?: Record<string, string | number>;
  accessingIp?: string;
  authenticatingDeviceInfo?: Record<string, string>;
  authMethodType?: string;
  consentDecision?: string;
  desktopTransactionDecision?: string;
  errorCode?: string;
  failureReason?: string;
  flowType?: string;
  isNewAuthenticationDeviceForRP?: boolean;
  status?: string;
  events: { id: string; timestamp: number; payload: { flowId: string; details: Record<string, unknown> } }[];
}

/** A platform started for a test with the demo tenant: where it serves and the demo app's API credentials. */
interface DemoPlatform {
  platform: { url: string };
  demo: { appId: string; credentialsId: string; apiSecret: string };
}

/** activityLogs of a test platform's demo app, for flows started from `since` on. */
export const demoActivityLogs = ({ platform, demo }: DemoPlatform, since: number) =>
  activityLogs({
    tokenUrl: `${platform.url}/token`,
    adminUrl: platform.url,
    appId: demo.appId,
    credentialsId: demo.credentialsId,
    apiSecret: demo.apiSecret,
    since,
  });

/** The actions of a record's events, in order. */
export const actionsOf = (r: ActivityLogRecord) => r.events.map((e) => String(e.payload.details.action));

/**
 * Reads the management API's activity logs (spec 4.6) as the demo tenant's API credentials: a bearer token by
 * client_credentials (scope svc_admin_api) from `tokenUrl`, then POST activity-logs at `adminUrl`.
 */
export function activityLogs(opts: {
  tokenUrl: string;
  adminUrl: string;
  appId: string;
  credentialsId: string;
  apiSecret: string;
  /** Records of flows started from here on (epoch ms). */
  since: number;
}) {
  let token: string | undefined;
  const query = async (
    filter: { userId?: string; userAlias?: string } = {},
  ): Promise<ActivityLogRecord[]> => {
    token ??= await clientCredentialsToken(opts.tokenUrl, opts.credentialsId, opts.apiSecret);
    const res = await fetch(new URL('/api/v1/mgmt/activity-logs', opts.adminUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        appId: opts.appId,
        credentialsId: opts.credentialsId,
        timeStart: opts.since,
        timeEnd: Date.now() + 60_000,
        pageSize: 5000,
        ...filter,
      }),
    });
    if (res.status !== 200) throw new Error(`activity-logs: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { activityLogs: ActivityLogRecord[]; total: number };
    assert.equal(body.total, body.activityLogs.length);
    return body.activityLogs;
  };
  return {
    query,
    /**
     * The one record of `flowId`, once its events include the actions of `until` (as often as listed there).
     * Records arrive through Kafka and the activity-log consumer: polled, never a fixed wait. Fails unless
     * exactly one record has this id.
     */
    async flow(flowId: string, until: string[], timeoutMs = 60_000): Promise<ActivityLogRecord> {
      const count = (actions: string[], a: string) => actions.filter((x) => x === a).length;
      const arrived = (r: ActivityLogRecord) => until.every((a) => count(actionsOf(r), a) >= count(until, a));
      const records = await eventually(
        async () => (await query()).filter((r) => r.id === flowId),
        (rs) => rs.length === 1 && arrived(rs[0]!),
        timeoutMs,
        250,
      );
      assert.equal(records.length, 1, `one activity log record of flow ${flowId}`);
      const record = records[0]!;
      assert.ok(arrived(record), `${flowId}: [${until}] within [${actionsOf(record)}]`);
      return record;
    },
  };
}

/**
 * The identify page starts a conditional-UI (autofill) passkey ceremony by itself; with a virtual
 * authenticator it would sign in before the test's button does. Aborting only the autofill's options call
 * leaves the ceremony the test starts with a button as the one that runs.
 */
export async function withoutPasskeyAutofill(context: BrowserContext): Promise<void> {
  await context.route('**/passkey/sign-in-options', async (route) => {
    const sent = route.request().postDataJSON() as { autofill?: boolean };
    if (sent.autofill) return route.abort();
    await route.continue();
  });
}
