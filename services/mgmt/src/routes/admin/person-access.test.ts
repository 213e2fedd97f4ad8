import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';
import { supportData } from '../../testing/support-data';
import { MemorySupport } from '../../testing/support-memory';

type Json = Record<string, unknown>;

describe('admin API: a person’s sessions, sign out everywhere, disable / enable (issue 38)', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let supportToken: string;
  let adminToken: string;
  const port = new MemorySupport();
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await h.asToken(token, method, `/api/v1/admin/tenants/${tenantId}/users${path}`, body);
    return { status: res.status, body: (await res.json()) as Json };
  };
  beforeAll(async () => {
    h = await startMgmt({}, { support: port });
    tenantId = await h.createTenant('Acme');
    const other = await h.createTenant('Other');
    supportData(port, tenantId, other);
    port.sessions.set(`${tenantId} user-alice`, [
      {
        sid: 'sid-1',
        deviceName: 'Linux PC',
        os: 'Linux',
        browser: 'Chrome 156',
        place: 'Berlin, DE',
        startedAt: 1,
        lastSeenAt: 2,
        apps: [{ clientId: 'c1', name: 'Shop' }],
      },
    ]);
    h.peers.memberships.push({ tenantId, appId: 'app-1', userId: 'user-alice' });
    supportToken = await h.adminToken(tenantId, 'support@acme.test', 'support');
    adminToken = await h.adminToken(tenantId, 'admin@acme.test', 'administrator');
  });
  afterAll(() => h.stop());

  it('GET …/sessions lists the person’s sessions; another tenant’s person is 404', async () => {
    const { status, body } = await call(supportToken, 'GET', '/user-alice/sessions');
    assert.equal(status, 200);
    assert.deepEqual(body, { sessions: port.sessions.get(`${tenantId} user-alice`) });
    assert.equal((await call(supportToken, 'GET', '/user-other/sessions')).status, 404);
  });

  it('POST …/sign-out-everywhere (Support may): sessions and refresh tokens end; the event names the caller', async () => {
    const { status, body } = await call(supportToken, 'POST', '/user-alice/sign-out-everywhere', {});
    assert.equal(status, 200);
    assert.deepEqual(body, {
      status: 'success',
      userId: 'user-alice',
      endedSessions: 2,
      notifiedApps: ['client-a'],
    });
    assert.deepEqual(h.peers.revokedGrants.at(-1), {
      tenantId,
      userId: 'user-alice',
      appId: '',
      deviceId: '',
    });
    const e = h.adminEvents.at(-1)!;
    assert.deepEqual(
      [e.activityType, e.adminEmail, e.data],
      [
        'administrator_sign_out_user_everywhere',
        'support@acme.test',
        { userId: 'user-alice', endedSessions: 2, notifiedApps: ['client-a'] },
      ],
    );
    assert.equal((await call(supportToken, 'POST', '/user-other/sign-out-everywhere', {})).status, 404);
    const extra = await call(supportToken, 'POST', '/user-alice/sign-out-everywhere', { all: true });
    assert.equal(extra.status, 400);
  });

  it('POST …/disable and …/enable need an Administrator; disabling also signs the person out', async () => {
    const refused = await call(supportToken, 'POST', '/user-alice/disable', {});
    assert.equal(refused.status, 403);
    assert.equal(h.peers.disables.length, 0);
    const signOuts = h.peers.signOuts.length;
    const disabled = await call(adminToken, 'POST', '/user-alice/disable', {});
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.disabled, true);
    assert.equal(disabled.body.endedSessions, 2);
    assert.equal(typeof disabled.body.changedAt, 'number');
    assert.deepEqual(h.peers.disables.at(-1), { tenantId, userId: 'user-alice', disabled: true });
    assert.equal(h.peers.signOuts.length, signOuts + 1);
    assert.equal(h.adminEvents.at(-1)!.activityType, 'administrator_disable_user');
    const enabled = await call(adminToken, 'POST', '/user-alice/enable', {});
    assert.equal(enabled.status, 200);
    assert.equal(enabled.body.disabled, false);
    assert.deepEqual(h.peers.disables.at(-1), { tenantId, userId: 'user-alice', disabled: false });
    assert.deepEqual(
      [h.adminEvents.at(-1)!.activityType, h.adminEvents.at(-1)!.adminEmail, h.adminEvents.at(-1)!.data],
      ['administrator_enable_user', 'admin@acme.test', { userId: 'user-alice' }],
    );
    assert.equal((await call(adminToken, 'POST', '/user-other/disable', {})).status, 404);
  });
});
