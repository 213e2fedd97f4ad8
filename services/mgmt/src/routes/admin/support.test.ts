import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';
import { supportData } from '../../testing/support-data';
import { MemorySupport } from '../../testing/support-memory';

type Json = Record<string, unknown>;

describe('admin API: support routes', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let other: string;
  let token: string;
  const port = new MemorySupport();
  const get = async (path: string) => {
    const res = await h.asToken(token, 'GET', `/api/v1/admin/tenants/${tenantId}${path}`);
    return { status: res.status, body: (await res.json()) as Json };
  };
  beforeAll(async () => {
    h = await startMgmt({}, { support: port });
    tenantId = await h.createTenant('Acme');
    other = await h.createTenant('Other');
    supportData(port, tenantId, other);
    token = await h.adminToken(tenantId, 'support@acme.test', 'support');
  });
  afterAll(() => h.stop());

  it('GET …/users?query= finds a person by exact email (any case), user ID or alias, in this tenant only', async () => {
    for (const [query, matchedBy] of [
      ['Alice@Example.COM', 'email'],
      ['user-alice', 'user_id'],
      ['alice-1', 'alias'],
    ]) {
      const { status, body } = await get(`/users?${new URLSearchParams({ query: query! })}`);
      assert.equal(status, 200);
      assert.deepEqual(body, { users: [{ userId: 'user-alice', email: 'alice@example.com', matchedBy }] });
    }
    assert.deepEqual((await get('/users?query=user-other')).body, { users: [] });
  });

  it('hostile searches: operators, regex, 10 KB, repeated parameters → empty or 400, never 500', async () => {
    assert.deepEqual((await get(`/users?query=${encodeURIComponent('.*')}`)).body, { users: [] });
    for (const path of [
      '/users?query[$ne]=x',
      '/users?query=a&query=b',
      `/users?query=${'a'.repeat(10_240)}`,
    ]) {
      const { status, body } = await get(path);
      assert.equal(status, 400, path);
      assert.equal((body.error as Json).code, 'invalid_request');
    }
  });

  it('GET …/users/:userId → devices and memberships; another tenant’s person is 404', async () => {
    const { status, body } = await get('/users/user-alice');
    assert.equal(status, 200);
    assert.equal(body.email, 'alice@example.com');
    assert.equal((body.devices as Json[])[0]!.deviceId, 'device-1');
    assert.equal((body.memberships as Json[])[0]!.alias, 'alice-1');
    const foreign = await get('/users/user-other');
    assert.equal(foreign.status, 404);
    assert.equal((foreign.body.error as Json).code, 'user_not_found');
  });

  it('GET …/flows: newest first with outcomes in words, filtered, paged by cursor', async () => {
    const all = await get('/flows');
    assert.deepEqual(
      (all.body.flows as Json[]).map((f) => [f.id, f.outcome]),
      [
        ['flow-bad', 'Wrong code entered 5 times; the code was invalidated'],
        ['flow-ru', 'Blocked: sign-in from a blocked country (RU)'],
        ['flow-ok', 'Signed in with an email code'],
      ],
    );
    const first = await get('/flows?limit=2');
    assert.equal((first.body.flows as Json[]).length, 2);
    const next = await get(`/flows?limit=2&cursor=${first.body.nextCursor}`);
    assert.deepEqual(
      (next.body.flows as Json[]).map((f) => f.id),
      ['flow-ok'],
    );
    assert.equal(next.body.nextCursor, undefined);
    const failed = await get('/flows?status=failure&user=user-alice&from=2026-01-01&to=2026-01-01');
    assert.deepEqual(
      (failed.body.flows as Json[]).map((f) => f.id),
      ['flow-bad'],
    );
    for (const bad of [
      '/flows?status=oops',
      '/flows?from=yesterday',
      '/flows?limit=500',
      '/flows?cursor=%7B%7D',
    ]) {
      assert.equal((await get(bad)).status, 400, bad);
    }
  });

  it('GET …/flows/:flowId → summary, timeline in words, the record; another tenant’s is 404', async () => {
    const { status, body } = await get('/flows/flow-bad');
    assert.equal(status, 200);
    assert.equal((body.flow as Json).outcome, 'Wrong code entered 5 times; the code was invalidated');
    assert.equal((body.timeline as Json[])[1]!.sentence, 'Saw the sign-in page (the email step).');
    assert.equal((body.record as Json).id, 'flow-bad');
    assert.equal((await get('/flows/flow-other')).status, 404);
  });

  it('exports: CSV and JSON of the filtered set, and one flow; each recorded with multipeEvents (and flowId)', async () => {
    const csv = await h.asToken(
      token,
      'GET',
      `/api/v1/admin/tenants/${tenantId}/flows/export?format=csv&status=blocked`,
    );
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    const lines = (await csv.text()).trim().split('\r\n');
    assert.equal(
      lines[0],
      'id,time,applicationId,userId,email,userAlias,flowType,authMethodType,status,errorCode,failureReason,outcome,accessingDevice,accessingIp,country,city',
    );
    assert.equal(lines.length, 2);
    let e = h.adminEvents.at(-1)!;
    assert.deepEqual(
      [e.activityType, e.adminEmail, e.data],
      ['administrator_export_event_data', 'support@acme.test', { multipeEvents: true }],
    );
    const json = await h.asToken(token, 'GET', `/api/v1/admin/tenants/${tenantId}/flows/export?format=json`);
    assert.deepEqual(
      ((await json.json()) as Json[]).map((r) => r.id),
      ['flow-bad', 'flow-ru', 'flow-ok'],
    );
    const one = await h.asToken(token, 'GET', `/api/v1/admin/tenants/${tenantId}/flows/flow-ok/export`);
    assert.equal(one.status, 200);
    assert.equal(((await one.json()) as Json).id, 'flow-ok');
    e = h.adminEvents.at(-1)!;
    assert.deepEqual(e.data, { multipeEvents: false, flowId: 'flow-ok' });
    const count = h.adminEvents.length;
    const foreign = await h.asToken(
      token,
      'GET',
      `/api/v1/admin/tenants/${tenantId}/flows/flow-other/export`,
    );
    assert.equal(foreign.status, 404);
    const noFormat = await h.asToken(token, 'GET', `/api/v1/admin/tenants/${tenantId}/flows/export`);
    assert.equal(noFormat.status, 400);
    assert.equal(h.adminEvents.length, count, 'a refused export records nothing');
  });

  it('a token of one tenant reads nothing of another (404 tenant_not_found)', async () => {
    const res = await h.asToken(
      token,
      'GET',
      `/api/v1/admin/tenants/${other}/users?query=alice%40example.com`,
    );
    assert.equal(res.status, 404);
    const exp = await h.asToken(token, 'GET', `/api/v1/admin/tenants/${other}/flows/export?format=csv`);
    assert.equal(exp.status, 404);
  });
});

describe('admin API: support routes without a support look-up', () => {
  it('answer 503 support_unavailable', async () => {
    const h = await startMgmt();
    try {
      const tenantId = await h.createTenant('Acme');
      const token = await h.adminToken(tenantId, 'support@acme.test', 'support');
      for (const path of ['/users?query=a', '/users/u1', '/flows', '/flows/f1', '/flows/export?format=csv']) {
        const res = await h.asToken(token, 'GET', `/api/v1/admin/tenants/${tenantId}${path}`);
        assert.equal(res.status, 503, path);
        assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'support_unavailable');
      }
    } finally {
      await h.stop();
    }
  });
});
