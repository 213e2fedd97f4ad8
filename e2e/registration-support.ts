import assert from 'node:assert/strict';
import { clientCredentialsToken, mailbox } from '@sesame/testing';
import { callbackOrigin } from './hosted-signin-support';
import { type RealPlatform, startRealPlatform } from './real-platform';

/** Where the demo app sends a person after a registration (its registration redirect URI). */
export const registeredUri = `${callbackOrigin}/registered`;

/**
 * The platform on the real servers, mailing through the tests' SMTP server, with the demo app given its
 * registration redirect URI (send-activation refuses an app without one).
 */
export async function startRegistrationPlatform(name: string): Promise<RealPlatform> {
  const env = await startRealPlatform(name, { smtp: true });
  const patched = await fetch(
    `${env.platform.url}/api/v1/admin/tenants/${env.demo.tenantId}/applications/${env.demo.appId}`,
    {
      method: 'PATCH',
      headers: { authorization: `Bearer ${env.platform.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ registrationRedirectUri: registeredUri }),
    },
  );
  assert.equal(patched.status, 200);
  return env;
}

/**
 * POST send-activation for the demo app as its RP would (client_credentials token), asserts the spec's success
 * answer for `userEmail`, and returns the registration link from the mail the SMTP server received.
 */
export async function sendActivation(
  env: RealPlatform,
  body: { userEmail: string } & Record<string, unknown>,
): Promise<string> {
  const token = await clientCredentialsToken(
    `${env.platform.url}/token`,
    env.demo.credentialsId,
    env.demo.apiSecret,
  );
  const sentAfter = new Date();
  const res = await fetch(`${env.platform.url}/api/v1/mgmt/send-activation`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: env.demo.clientId, credentialsId: env.demo.credentialsId, ...body }),
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    status: 'success',
    activationResult: { channelsResult: [{ channelType: 'email', target: body.userEmail, status: 'sent' }] },
  });
  const mail = await mailbox().waitForMessageTo(body.userEmail, { timeoutMs: 15_000, after: sentAfter });
  const link = /(https?:\/\/\S+\/register\/[\w-]{43})/.exec(mail.text)?.[1];
  assert.ok(link, `a registration link in "${mail.subject}"`);
  return link;
}
