import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, isGrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { createTestPki } from '@sesame/testing';
import { startAuth } from '../testing/hosted-test-client';
import { activationRequest } from '../testing/invitations';
import { type UsersGrpcHarness, startUsersGrpc } from '../testing/users-grpc';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const { ACTIVATION_ALIAS_TYPE_EMAIL: EMAIL } = users.ActivationAliasType;

/**
 * Users.CreateActivationLink as auth serves it over mutual TLS: only mgmt may call it; it mails one link
 * per call and answers the channel result send-activation returns (spec 4.5).
 */
describe('Users.CreateActivationLink (auth, mTLS)', () => {
  let auth: Auth;
  let failing: Auth;
  let grpc: UsersGrpcHarness;
  let failingGrpc: UsersGrpcHarness;
  const as = (caller: string, server: UsersGrpcHarness) => server.client(caller);

  beforeAll(async () => {
    const pki = await createTestPki('users');
    auth = await startAuth();
    failing = await startAuth({ failMail: true });
    grpc = await startUsersGrpc((server) => auth.module.grpc?.(server), pki);
    failingGrpc = await startUsersGrpc((server) => failing.module.grpc?.(server), pki);
  });
  afterAll(async () => {
    await grpc.stop();
    await failingGrpc.stop();
    await auth.stop();
    await failing.stop();
  });

  it('refuses every caller but mgmt (PERMISSION_DENIED), and mails nothing for them', async () => {
    for (const peer of ['token', 'jwks', 'activity-log', 'ciba-notifier', 'auth']) {
      const client = await as(peer, grpc);
      await assert.rejects(
        client.createActivationLink(activationRequest({ userEmail: `${peer}@example.com` })),
        (err) => isGrpcStatus(err, GrpcStatus.PERMISSION_DENIED),
      );
    }
    assert.equal(auth.outbox.list().length, 0);
  });

  it('for mgmt: mails one registration link and answers channel email, target, status sent', async () => {
    const client = await as('mgmt', grpc);
    const res = await client.createActivationLink(activationRequest({ userEmail: 'Grace@Example.com' }));
    assert.deepEqual(res.channels, [{ channelType: 'email', target: 'grace@example.com', status: 'sent' }]);
    assert.match(res.flowId, /^[0-9a-f-]{36}$/);
    const mails = auth.outbox.list().filter((m) => m.to === 'grace@example.com');
    assert.equal(mails.length, 1);
    assert.equal(mails[0]?.subject, 'Create your account for Shop');
    assert.match(mails[0]?.text ?? '', /http:\/\/localhost\/register\/[\w-]{43}\n/);
    assert.match(mails[0]?.text ?? '', /expires in 30 minutes/);
  });

  it('uses the app’s lifetime when mgmt passes one', async () => {
    const client = await as('mgmt', grpc);
    const before = Date.now();
    const res = await client.createActivationLink(
      activationRequest({
        userEmail: 'short@example.com',
        expiresInS: 600,
        aliasType: EMAIL,
        aliasValue: '',
      }),
    );
    assert.ok(res.expiresAt >= before + 600_000 && res.expiresAt <= Date.now() + 600_000);
    assert.match(
      auth.outbox.list().find((m) => m.to === 'short@example.com')?.text ?? '',
      /expires in 10 minutes/,
    );
  });

  it('INVALID_ARGUMENT for a request the contract refuses (bad email, alias type ALIAS without a value)', async () => {
    const client = await as('mgmt', grpc);
    for (const bad of [{ userEmail: 'not-an-email' }, { aliasValue: '' }, { scopes: ['openid'] }]) {
      await assert.rejects(client.createActivationLink(activationRequest(bad)), (err) =>
        isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT),
      );
    }
  });

  it('ALREADY_EXISTS when the alias is another user’s in this app; the same person may be invited again', async () => {
    await auth.users.users.create({ userId: 'u-holder', email: 'holder@example.com', createdAt: 1 });
    await auth.users.memberships.save({
      tenantId: 'tenant-1',
      appId: 'app-1',
      userId: 'u-holder',
      alias: 'taken',
      acrValues: [],
      confirmed: true,
      firstLoginAt: 1,
      lastLoginAt: 1,
    });
    const client = await as('mgmt', grpc);
    await assert.rejects(
      client.createActivationLink(activationRequest({ userEmail: 'thief@example.com', aliasValue: 'taken' })),
      (err) => isGrpcStatus(err, GrpcStatus.ALREADY_EXISTS),
    );
    assert.equal(auth.outbox.list().filter((m) => m.to === 'thief@example.com').length, 0);
    const again = await client.createActivationLink(
      activationRequest({ userEmail: 'holder@example.com', aliasValue: 'taken' }),
    );
    assert.equal(again.channels[0]?.status, 'sent');
  });

  it('answers status failed when the mail cannot be sent', async () => {
    const client = await as('mgmt', failingGrpc);
    const res = await client.createActivationLink(activationRequest());
    assert.deepEqual(res.channels, [{ channelType: 'email', target: 'ada@example.com', status: 'failed' }]);
  });

  it('12 invitations to one address: 5 mails, then RESOURCE_EXHAUSTED saying when to retry (issue 26)', async () => {
    const client = await as('mgmt', grpc);
    const answers = [];
    for (let i = 0; i < 12; i++) {
      answers.push(
        await client
          .createActivationLink(
            activationRequest({ userEmail: i % 2 ? 'Bomb@Example.com' : 'bomb@example.com' }),
          )
          .then(() => 'sent')
          .catch((err: { code?: number; details?: string }) => `${err.code} ${err.details}`),
      );
    }
    assert.deepEqual(answers.slice(0, 5), Array(5).fill('sent'));
    // The window is 15 minutes from the first mail: a second may have passed since.
    for (const refused of answers.slice(5))
      assert.match(
        refused,
        new RegExp(
          `^${GrpcStatus.RESOURCE_EXHAUSTED} too many registration mails for this address; retry after (89\\d|900) s$`,
        ),
      );
    assert.equal(auth.outbox.list().filter((m) => m.to === 'bomb@example.com').length, 5);
  });

  it("tenant X's invitations to an address do not use up tenant Y's allowance for it (issue 35)", async () => {
    const client = await as('mgmt', grpc);
    const invite = (tenantId: string, i: number) =>
      client
        .createActivationLink(
          activationRequest({
            tenantId,
            appId: `app-${tenantId}`,
            clientId: `client-${tenantId}`,
            userEmail: 'shared@example.com',
            aliasValue: `shared-${tenantId}-${i}`,
          }),
        )
        .then(() => 'sent')
        .catch((err: { code?: number }) => String(err.code));
    const x = [];
    for (let i = 0; i < 6; i++) x.push(await invite('tenant-x', i));
    assert.deepEqual(x, [...Array(5).fill('sent'), String(GrpcStatus.RESOURCE_EXHAUSTED)]);
    assert.equal(await invite('tenant-y', 0), 'sent');
    assert.equal(auth.outbox.list().filter((m) => m.to === 'shared@example.com').length, 6);
  });
});
