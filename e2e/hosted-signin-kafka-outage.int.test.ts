import assert from 'node:assert/strict';
import { it, jest } from '@jest/globals';
import { infraControl } from '@sesame/testing';
import { type ActivityLogRecord, actionsOf, activityLogs, freshEmail } from './hosted-signin-support';
import { emailCodeSignIn, redeemAndVerify } from './http-signin';
import { startRealPlatform } from './token-fixtures';

/**
 * Hosted sign-ins while the Kafka broker is down (issue 8, "Done when"): the person signs in as usual, and
 * every flow event, kept in the publishers' durable outboxes, reaches activity-logs once the broker is back.
 * Stops and starts the broker of scripts/infra: an integration-outage test, run alone on servers of its own.
 */
// Starting the platform, a broker restart and the catch-up of the outboxes take a while on a loaded machine.
jest.setTimeout(300_000);

/**
 * A new user's email-code sign-in with consent for the email scope, as recorded (signin/flow-events.ts): the
 * second desktop_login_page is the typed address going on the record (issue 38, steps/email-code/routes.ts).
 */
const newUserActions = [
  'auth_start_oidc',
  'desktop_login_page',
  'desktop_login_page',
  'new_user_registered',
  'email_verification_success',
  'desktop_consent',
  'auth_complete',
];

it('signs people in while Kafka is down, and every flow event of those sign-ins arrives after it returns', async () => {
  const infra = await infraControl();
  const since = Date.now();
  const env = await startRealPlatform('kafka-outage-signin', {
    smtp: true,
    // Every sign-in here comes from 127.0.0.1: lift the per-IP mail throttle (it has unit tests).
    env: { SESAME_MAILS_PER_IP: '100000' },
  });
  const url = env.platform.url;
  const { demo } = env;
  const logs = activityLogs({
    tokenUrl: `${url}/token`,
    adminUrl: url,
    appId: demo.appId,
    credentialsId: demo.credentialsId,
    apiSecret: demo.apiSecret,
    since,
  });
  /** One sign-in from /authorize to a verified ID token. */
  const signIn = async (label: string) => {
    const email = freshEmail(label);
    const s = await emailCodeSignIn({
      authUrl: url,
      clientId: demo.clientId,
      redirectUri: demo.redirectUri,
      email,
    });
    const claims = await redeemAndVerify({
      tokenUrl: `${url}/token`,
      jwksUrl: `${url}/jwks`,
      issuer: url,
      clientId: demo.clientId,
      clientSecret: demo.clientSecret,
      redirectUri: demo.redirectUri,
      signIn: s,
    });
    assert.equal(claims.email, email);
    return { flowId: s.flowId, sub: claims.sub };
  };
  const assertSignInRecord = (record: ActivityLogRecord, sub: string | undefined) => {
    assert.equal(record.status, 'success');
    assert.equal(record.flowType, 'authentication');
    assert.equal(record.authMethodType, 'email_otp');
    assert.equal(record.userId, sub);
    assert.deepEqual(actionsOf(record), newUserActions);
  };

  let brokerDown = false;
  try {
    // The pipeline works before the outage.
    const before = await signIn('before-outage');
    assertSignInRecord(await logs.flow(before.flowId, newUserActions), before.sub);

    await infra.stop('kafka');
    brokerDown = true;
    const during = [];
    for (let i = 0; i < 3; i++) during.push(await signIn(`during-outage-${i}`));
    // Nothing of them could reach activity-log yet (the query itself needs no broker).
    const seen = new Set((await logs.query()).map((r) => r.id));
    assert.deepEqual(
      during.filter((f) => seen.has(f.flowId)),
      [],
      'no record of a sign-in made while the broker was down',
    );

    await infra.start('kafka');
    brokerDown = false;
    for (const f of during) assertSignInRecord(await logs.flow(f.flowId, newUserActions, 180_000), f.sub);
    // And sign-in goes on as before after the outage.
    const after = await signIn('after-outage');
    assertSignInRecord(await logs.flow(after.flowId, newUserActions, 120_000), after.sub);
  } finally {
    if (brokerDown) await infra.start('kafka');
    await env.stop();
  }
});
