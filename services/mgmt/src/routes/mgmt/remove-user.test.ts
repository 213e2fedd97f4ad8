import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { users } from '@sesame/proto';
import {
  type MgmtHarness,
  type ApiTenant as Tenant,
  expectMgmtError as expectError,
  startMgmt,
} from '../../testing/mgmt-harness';

describe('management API: bearer tokens and DELETE /api/v1/mgmt/users/:userIdentifier', () => {
  let h: MgmtHarness;
  let a: Tenant;
  let b: Tenant;

  const tenant = (name: string) => h.apiTenant(name);
  /** The query of a removal by user id from the whole tenant, with the credentials of `t`; `over` changes it. */
  const query = (t: Tenant, over: Record<string, string> = {}) => ({
    userIdentifierType: 'user_id',
    scope: 'tenant',
    credentialsId: t.credentialsId,
    ...over,
  });

  function del(t: Tenant, identifier: string, query: Record<string, string | string[]>, token = t.token) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) qs.append(k, one);
    return fetch(`${h.url}/api/v1/mgmt/users/${encodeURIComponent(identifier)}?${qs}`, {
      method: 'DELETE',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  }

  /** Each of these removals by `a` is refused with this status and error code. */
  const refusesEach = async (status: number, code: string, queries: Record<string, string | string[]>[]) => {
    for (const q of queries) await expectError(await del(a, 'u', q), status, code);
  };

  beforeAll(async () => {
    h = await startMgmt();
    a = await tenant('a');
    b = await tenant('b');
  });
  afterAll(() => h.stop());

  it('401 for a missing, malformed, unknown, inactive, expired or wrong-scope token, with WWW-Authenticate', async () => {
    const q = query(a);
    const none = await del(a, 'u', q, '');
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="sesame-mgmt"');
    await expectError(none, 401, 'unauthorized');
    const now = h.clock.now() / 1000;
    h.peers.tokens.set('inactive', {
      tenantId: a.tenantId,
      credentialsId: a.credentialsId,
      scope: 'svc_admin_api',
      expiresAt: now + 60,
      active: false,
    });
    h.apiToken('expired', a, -1);
    h.peers.tokens.set('scoped', {
      tenantId: a.tenantId,
      credentialsId: a.credentialsId,
      scope: 'openid email',
      expiresAt: now + 60,
    });
    for (const token of ['unknown', 'inactive', 'expired', 'scoped', 'not a token']) {
      const res = await del(a, 'u', q, token);
      assert.match(
        res.headers.get('www-authenticate') ?? '',
        /^Bearer realm="sesame-mgmt", error="invalid_token"/,
        token,
      );
      await expectError(res, 401, 'invalid_token');
    }
    assert.equal(h.peers.removeCalls.length, 0);
  });

  it('401 once the API credentials of a token are revoked', async () => {
    const c = await tenant('revoked');
    await h.admin('DELETE', `/api/v1/admin/tenants/${c.tenantId}/credentials/${c.credentialsId}`);
    await expectError(await del(c, 'u', query(c)), 401, 'invalid_token');
  });

  it('400 invalid_request ("N/A": invalid request structure): credentialsId missing or a parameter repeated', async () => {
    await refusesEach(400, 'invalid_request', [
      { userIdentifierType: 'user_id', scope: 'tenant' },
      { userIdentifierType: 'user_id', scope: ['tenant', 'app'], credentialsId: a.credentialsId },
    ]);
  });

  it('400 invalid_userIdentifierType when it is missing or not user_id / alias', async () => {
    await refusesEach(400, 'invalid_userIdentifierType', [
      { scope: 'tenant', credentialsId: a.credentialsId },
      query(a, { userIdentifierType: 'email' }),
    ]);
  });

  it('400 invalid_scope when scope is missing or not tenant / app', async () => {
    await refusesEach(400, 'invalid_scope', [
      { userIdentifierType: 'user_id', credentialsId: a.credentialsId },
      query(a, { scope: 'global' }),
    ]);
  });

  it('400 missing_appId when scope is app without appId', async () => {
    await expectError(await del(a, 'u', query(a, { scope: 'app' })), 400, 'missing_appId');
  });

  it('403 forbidden when credentialsId is not the token’s, or appId is of another tenant or does not exist (same answer)', async () => {
    await expectError(await del(a, 'u', query(b)), 403, 'forbidden');
    const other = await del(a, 'u', query(a, { scope: 'app', appId: b.appId }));
    const none = await del(a, 'u', query(a, { scope: 'app', appId: 'no-such-app' }));
    const [otherBody, noneBody] = [await other.json(), await none.json()];
    assert.equal(other.status, 403);
    assert.deepEqual(otherBody, noneBody);
    assert.equal(h.peers.removeCalls.length, 0);
  });

  it('403 user_not_found for an unknown user and for a user of another tenant', async () => {
    h.peers.memberships.push({ tenantId: b.tenantId, appId: b.appId, userId: 'b-user', alias: 'bob' });
    await expectError(await del(a, 'nobody', query(a)), 403, 'user_not_found');
    await expectError(await del(a, 'b-user', query(a)), 403, 'user_not_found');
    await expectError(await del(a, 'bob', query(a, { userIdentifierType: 'alias' })), 403, 'user_not_found');
    assert.ok(h.peers.memberships.some((m) => m.userId === 'b-user'));
  });

  it('200 {status: success}: scope app removes that one association through Users.RemoveUser, by alias too', async () => {
    h.peers.memberships.push({ tenantId: a.tenantId, appId: a.appId, userId: 'u1', alias: 'alice' });
    h.peers.memberships.push({ tenantId: a.tenantId, appId: 'a-second-app', userId: 'u1' });
    const res = await del(
      a,
      'alice',
      query(a, { userIdentifierType: 'alias', scope: 'app', appId: a.appId }),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'success' });
    assert.deepEqual(h.peers.removeCalls.at(-1), {
      tenantId: a.tenantId,
      identifierType: users.UserIdentifierType.USER_IDENTIFIER_TYPE_ALIAS,
      identifier: 'alice',
      scope: users.RemovalScope.REMOVAL_SCOPE_APP,
      appId: a.appId,
    });
    assert.deepEqual(
      h.peers.memberships.filter((m) => m.userId === 'u1').map((m) => m.appId),
      ['a-second-app'],
    );
  });

  it('200: scope tenant removes every association with the token’s tenant and none elsewhere', async () => {
    h.peers.memberships.push({ tenantId: a.tenantId, appId: a.appId, userId: 'u2' });
    h.peers.memberships.push({ tenantId: b.tenantId, appId: b.appId, userId: 'u2' });
    const res = await del(a, 'u2', query(a));
    assert.equal(res.status, 200);
    assert.deepEqual(
      h.peers.memberships.filter((m) => m.userId === 'u2').map((m) => m.tenantId),
      [b.tenantId],
    );
  });

  it('each removal publishes administrator_remove_user as the API credentials (userId, scope, app); a refused one none', async () => {
    h.peers.memberships.push({ tenantId: a.tenantId, appId: a.appId, userId: 'u5', alias: 'eve' });
    h.peers.memberships.push({ tenantId: a.tenantId, appId: 'a-other-app', userId: 'u5' });
    const events = h.adminEvents.length;
    await expectError(
      await del(a, 'nobody-at-all', query(a, { userIdentifierType: 'alias' })),
      403,
      'user_not_found',
    );
    assert.equal(h.adminEvents.length, events, 'nothing removed, no event');
    const byApp = await del(
      a,
      'eve',
      query(a, { userIdentifierType: 'alias', scope: 'app', appId: a.appId }),
    );
    assert.equal(byApp.status, 200);
    assert.equal((await del(a, 'u5', query(a))).status, 200);
    assert.deepEqual(
      h.adminEvents.slice(events).map((e) => [e.activityType, e.adminEmail, e.sessionId, e.tenantId, e.data]),
      [
        [
          'administrator_remove_user',
          'api-credentials',
          a.credentialsId,
          a.tenantId,
          { userId: 'u5', scope: 'app', appId: a.appId },
        ],
        [
          'administrator_remove_user',
          'api-credentials',
          a.credentialsId,
          a.tenantId,
          { userId: 'u5', scope: 'tenant' },
        ],
      ],
    );
  });

  it("ends the removed user's refresh tokens in token: of the tenant, or of the one app (Grants.RevokeUserGrants)", async () => {
    h.peers.memberships.push({ tenantId: a.tenantId, appId: a.appId, userId: 'u3', alias: 'carol' });
    h.peers.memberships.push({ tenantId: a.tenantId, appId: a.appId, userId: 'u4' });
    const byApp = await del(a, 'carol', {
      userIdentifierType: 'alias',
      scope: 'app',
      appId: a.appId,
      credentialsId: a.credentialsId,
    });
    assert.equal(byApp.status, 200);
    assert.deepEqual(h.peers.revokedGrants.at(-1), {
      tenantId: a.tenantId,
      userId: 'u3',
      appId: a.appId,
      deviceId: '',
    });
    const byTenant = await del(a, 'u4', {
      userIdentifierType: 'user_id',
      scope: 'tenant',
      credentialsId: a.credentialsId,
    });
    assert.equal(byTenant.status, 200);
    assert.deepEqual(h.peers.revokedGrants.at(-1), {
      tenantId: a.tenantId,
      userId: 'u4',
      appId: '',
      deviceId: '',
    });
  });

  it("a user not found by alias revokes no grants; by user id, only that id's grants in the token's tenant", async () => {
    const count = h.peers.revokedGrants.length;
    const byAlias = await del(a, 'no-such-alias', query(a, { userIdentifierType: 'alias' }));
    await expectError(byAlias, 403, 'user_not_found');
    assert.equal(h.peers.revokedGrants.length, count);
    // The retry of a removal that answered 503 (next test) finds the person gone: it still ends their tokens,
    // and only in the token's tenant, whoever else has that id.
    await expectError(await del(a, 'nobody', query(a)), 403, 'user_not_found');
    assert.deepEqual(h.peers.revokedGrants.slice(count), [
      { tenantId: a.tenantId, userId: 'nobody', appId: '', deviceId: '' },
    ]);
  });

  it("token unreachable after the removal: 503 naming the user id, and the retry by that id ends the person's refresh tokens", async () => {
    h.peers.memberships.push({ tenantId: a.tenantId, appId: a.appId, userId: 'u5', alias: 'erin' });
    h.peers.grantsUnavailable = true;
    try {
      const first = await del(
        a,
        'erin',
        query(a, { userIdentifierType: 'alias', scope: 'app', appId: a.appId }),
      );
      const body = await expectError(first, 503, 'temporarily_unavailable');
      assert.match(body.error.message, /removed.*userIdentifierType=user_id and userIdentifier=u5$/);
      assert.ok(!h.peers.memberships.some((m) => m.userId === 'u5'), 'the removal itself stands');
      // Token still down: the retry is 503 again, not a 403 that would read as "done".
      await expectError(
        await del(a, 'u5', query(a, { scope: 'app', appId: a.appId })),
        503,
        'temporarily_unavailable',
      );
    } finally {
      h.peers.grantsUnavailable = false;
    }
    const count = h.peers.revokedGrants.length;
    await expectError(await del(a, 'u5', query(a, { scope: 'app', appId: a.appId })), 403, 'user_not_found');
    assert.deepEqual(h.peers.revokedGrants.slice(count), [
      { tenantId: a.tenantId, userId: 'u5', appId: a.appId, deviceId: '' },
    ]);
  });

  it("every management endpoint refuses another tenant's application or credentials with 403", async () => {
    const auth = { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' };
    const logs = await fetch(`${h.url}/api/v1/mgmt/activity-logs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ appId: b.appId, credentialsId: a.credentialsId, timeStart: 0, timeEnd: 10 }),
    });
    await expectError(logs, 403, 'forbidden');
    const logsCreds = await fetch(`${h.url}/api/v1/mgmt/activity-logs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ appId: a.appId, credentialsId: b.credentialsId, timeStart: 0, timeEnd: 10 }),
    });
    await expectError(logsCreds, 403, 'forbidden');
    const adminLogs = await fetch(
      `${h.url}/api/vbeta/mgmt/admin-logs?fromTime=0&toTime=10&credentialsId=${b.credentialsId}`,
      {
        headers: auth,
      },
    );
    await expectError(adminLogs, 403, 'forbidden');
    await expectError(await del(a, 'u', query(a, { scope: 'app', appId: b.appId })), 403, 'forbidden');
    const ok = await fetch(
      `${h.url}/api/vbeta/mgmt/admin-logs?fromTime=0&toTime=10&credentialsId=${a.credentialsId}`,
      {
        headers: auth,
      },
    );
    assert.equal(ok.status, 200, 'the same token works with its own credentialsId');
  });
});
