import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, sha256 } from '@sesame/platform';
import { events, directory, topics } from '@sesame/proto';
import { startedForSuite } from '@sesame/testing/suite';
import { sampleClaims } from '../../../testing/sample-claims';
import { assertTokenMembers } from '../../../testing/token-answer';
import { startTokenHarness } from '../../../testing/token-harness';

const CIBA = 'urn:openid:params:grant-type:ciba';

describe('CIBA grant (state machine on the injected clock)', () => {
  const h = startedForSuite(startTokenHarness);
  beforeAll(() => {
    h.directory.addClient({ clientId: 'poller', secret: 'poller-secret' });
    h.directory.addClient({ clientId: 'strict', secret: 'strict-secret', ciba: { strictErrors: true } });
    h.directory.addClient({ clientId: 'other', secret: 'other-secret' });
    h.directory.addClient({
      clientId: 'pinger',
      secret: 'pinger-secret',
      ciba: {
        mode: directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING,
        notificationEndpoint: 'https://rp.example/ping',
      },
    });
  });

  const start = async (clientId = 'poller', expiresIn = 0) =>
    h.grants.startBackchannel({
      tenantId: 'tenant-1',
      appId: 'app-1',
      clientId,
      scope: 'openid',
      clientNotificationToken: clientId === 'pinger' ? 'notif-token' : '',
      expiresIn,
      flowId: 'flow-ciba',
    });
  const poll = (authReqId: string, clientId = 'poller') =>
    h.post({
      grant_type: CIBA,
      auth_req_id: authReqId,
      client_id: clientId,
      client_secret: `${clientId}-secret`,
    });
  /** Moves past the 1 s poll gate (the in-memory store runs on the test clock). */
  const waitInterval = () => h.clock.advance(1000);

  it('starts with auth_req_id, expires_in 1800 by default and interval 1', async () => {
    const res = await start();
    assert.equal(res.expiresIn, 1800);
    assert.equal(res.interval, 1);
    assert.ok(Buffer.from(res.authReqId, 'base64url').length >= 32);
  });

  it('answers pending as spec 3: HTTP 200 {error: authorization_pending, status: link_sent}, then link_opened', async () => {
    const { authReqId } = await start();
    const sent = await poll(authReqId);
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.body, { error: 'authorization_pending', status: 'link_sent' });
    assert.equal(sent.headers.get('cache-control'), 'no-store');
    await h.grants.markBackchannelOpened({ authReqId });
    waitInterval();
    const opened = await poll(authReqId);
    assert.deepEqual(opened.body, { error: 'authorization_pending', status: 'link_opened' });
  });

  it('answers pending per CIBA Core §11 (HTTP 400) for a client with strict_errors', async () => {
    const { authReqId } = await start('strict');
    const res = await poll(authReqId, 'strict');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      error: 'authorization_pending',
      error_description: 'the link was sent to the user',
    });
  });

  it('answers slow_down (400) when polled again within the interval, pending again after it', async () => {
    const { authReqId } = await start();
    assert.equal((await poll(authReqId)).status, 200);
    h.clock.advance(500);
    const fast = await poll(authReqId);
    assert.equal(fast.status, 400);
    assert.equal(fast.body.error, 'slow_down');
    h.clock.advance(500);
    assert.equal((await poll(authReqId)).body.error, 'authorization_pending');
  });

  it('grants no offline_access and no refresh token to a CIBA grant, even for an app allowing them', async () => {
    h.directory.addClient({
      clientId: 'ciba-rt',
      secret: 'ciba-rt-secret',
      refreshTokens: { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 },
    });
    const { authReqId } = await h.grants.startBackchannel({
      tenantId: 'tenant-1',
      appId: 'app-1',
      clientId: 'ciba-rt',
      scope: 'openid email offline_access',
      clientNotificationToken: '',
      expiresIn: 0,
      flowId: 'flow-ciba',
    });
    await h.grants.completeBackchannel({ authReqId, claims: sampleClaims() });
    const done = await poll(authReqId, 'ciba-rt');
    assert.equal(done.status, 200);
    assert.equal(done.body.scope, 'openid email');
    assert.equal('refresh_token' in done.body, false);
  });

  it('returns the tokens once after CompleteBackchannel; the next poll gets invalid_grant', async () => {
    const { authReqId } = await start();
    await poll(authReqId);
    await h.grants.completeBackchannel({ authReqId, claims: sampleClaims() });
    const done = await poll(authReqId); // within the interval: a completed request is answered anyway
    assertTokenMembers(done, ['access_token', 'expires_in', 'id_token', 'scope', 'token_type']);
    waitInterval();
    const again = await poll(authReqId);
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
  });

  it('the access token of a completed request names its app and the login CompleteBackchannel gave (session feedback)', async () => {
    const { authReqId } = await start();
    const login = {
      flowId: 'flow-ciba',
      authenticatorId: '',
      deviceId: 'phone-1',
      loginAt: 1_700_000_000_000,
    };
    await h.grants.completeBackchannel({ authReqId, claims: sampleClaims(), login });
    const done = await poll(authReqId);
    const info = await h.grants.introspectAccessToken({ accessToken: String(done.body.access_token) });
    assert.deepEqual([info.kind, info.appId, info.tenantId], ['user', 'app-1', 'tenant-1']);
    assert.deepEqual(info.login, login);
  });

  it('answers access_denied after DenyBackchannel', async () => {
    const { authReqId } = await start();
    await h.grants.denyBackchannel({ authReqId, reason: 'user rejected' });
    const res = await poll(authReqId);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'access_denied');
  });

  it('answers expired_token once expires_in has passed', async () => {
    const { authReqId } = await start('poller', 60);
    h.clock.advance(60_000);
    const res = await poll(authReqId);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'expired_token');
  });

  it("answers invalid_grant for an unknown auth_req_id and for another client's", async () => {
    const unknown = await poll('no-such-request');
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body, { error: 'invalid_grant', error_description: 'auth_req_id is invalid' });
    const { authReqId } = await start();
    const foreign = await poll(authReqId, 'other');
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.error, 'invalid_grant');
  });

  it('requires client authentication: 401 invalid_client without a secret', async () => {
    const { authReqId } = await start();
    const res = await h.post({ grant_type: CIBA, auth_req_id: authReqId, client_id: 'poller' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
  });

  it('refuses a second decision: FAILED_PRECONDITION', async () => {
    const { authReqId } = await start();
    await h.grants.completeBackchannel({ authReqId, claims: sampleClaims() });
    await assert.rejects(h.grants.denyBackchannel({ authReqId, reason: 'late' }), {
      code: GrpcStatus.FAILED_PRECONDITION,
    });
  });

  it('publishes a CibaOutcome for a ping-mode client, keyed by the auth_req_id hash; none for poll mode', async () => {
    const before = h.published.length;
    const poller = await start();
    await h.grants.denyBackchannel({ authReqId: poller.authReqId, reason: 'no' });
    assert.equal(h.published.length, before);
    const { authReqId } = await start('pinger');
    await h.grants.denyBackchannel({ authReqId, reason: 'no' });
    assert.equal(h.published.length, before + 1);
    const sent = h.published.at(-1)!;
    assert.equal(sent.topic, topics.cibaOutcomes);
    assert.equal(sent.event.key, sha256(authReqId));
    const outcome = events.CibaOutcome.decode(sent.event.value);
    assert.equal(outcome.authReqId, authReqId);
    assert.equal(outcome.kind, events.CibaOutcomeKind.CIBA_OUTCOME_KIND_DENIED);
    assert.equal(outcome.notificationEndpoint, 'https://rp.example/ping');
    assert.equal(outcome.clientNotificationToken, 'notif-token');
    assert.equal(outcome.clientId, 'pinger');
  });

  it('publishes a COMPLETED outcome for a ping-mode client on CompleteBackchannel', async () => {
    const { authReqId } = await start('pinger');
    await h.grants.completeBackchannel({ authReqId, claims: sampleClaims() });
    const outcome = events.CibaOutcome.decode(h.published.at(-1)!.event.value);
    assert.equal(outcome.kind, events.CibaOutcomeKind.CIBA_OUTCOME_KIND_COMPLETED);
    assert.equal(outcome.authReqId, authReqId);
  });
});
