import assert from 'node:assert/strict';
import type { BrowserContext } from '@sesame/testing/browser';
import { type CryptoKey, type JWK, exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { catchCallbacks, freshEmail, identify, mailedCode } from './hosted-signin-support';
import type { startRealPlatform } from './real-platform';

/** The shared set-up of the FAPI end-to-end tests (fapi-dpop, fapi2-profile). */
type Platform = Awaited<ReturnType<typeof startRealPlatform>>;

/** The RP's callback: http on localhost, which FAPI 2.0 allows (loopback). */
export const FAPI_REDIRECT = 'http://localhost:3000/callback';

/** An ES256 key pair of the RP: the private half signs assertions, `jwk` (kid rp-key-1) is registered. */
export async function rpSigningKey(): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const pair = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'rp-key-1', use: 'sig', alg: 'ES256' };
  return { privateKey: pair.privateKey, jwk };
}

/** POSTs an application to the demo tenant through the admin API: its status and answer. */
export async function postApplication(env: Platform, body: Record<string, unknown>) {
  const res = await fetch(`${env.platform.url}/api/v1/admin/tenants/${env.demo.tenantId}/applications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${env.platform.adminKey}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Registers a private_key_jwt application (JWK Set by value) with `settings` beside; fails unless 201. */
export async function registerKeyedApp(env: Platform, jwk: JWK, settings: Record<string, unknown>) {
  const created = await postApplication(env, {
    redirectUris: [FAPI_REDIRECT],
    tokenEndpointAuthMethod: 'private_key_jwt',
    jwks: { keys: [jwk] },
    ...settings,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body as { appId: string; clientId: string } & Record<string, unknown>;
}

/** openid-client's configuration for a private_key_jwt client (http only because the test server is). */
export const keyedConfig = (env: Platform, clientId: string, privateKey: CryptoKey) =>
  oidc.discovery(
    new URL(env.platform.url),
    clientId,
    undefined,
    oidc.PrivateKeyJwt({ key: privateKey, kid: 'rp-key-1' }),
    { execute: [oidc.allowInsecureRequests] },
  );

/**
 * A person signs in at `url` by email code in the browser and approves: the RP's callback URL. Six digits
 * submit the code form by themselves (code-input.js): clicking Verify too races that submit when loaded.
 */
export async function signInAtUrl(context: BrowserContext, url: URL, emailLabel: string) {
  const callbacks = await catchCallbacks(context);
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  const email = freshEmail(emailLabel);
  await page.goto(url.href);
  const sentAfter = await identify(page, email);
  await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
  await page.getByRole('button', { name: 'Approve' }).waitFor();
  const callback = callbacks.next();
  await page.getByRole('button', { name: 'Approve' }).click();
  return { email, callbackUrl: new URL(await callback) };
}
