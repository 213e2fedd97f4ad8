import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { authenticationFlow, flowEvent } from '@sesame/activity-log-service/testing/fixtures';
import { type LogsHarness, apps, assertNamesField, startLogsHarness } from '../testing/logs-harness';
import { ACTIVITY_LOGS_PATH, createActivityLogsRoutes } from './activity-logs';

const T0 = 1_700_000_000_000;

describe('POST /api/v1/mgmt/activity-logs', () => {
  let h: LogsHarness;
  beforeAll(async () => {
    h = await startLogsHarness((activityLogs) => createActivityLogsRoutes({ activityLogs, apps }));
    await h.activityLogs.applyFlowEvents([
      ...authenticationFlow('flow-full', T0 + 10_000, { userId: 'alice', userAlias: 'al' }),
      ...Array.from({ length: 5100 }, (_, i) =>
        flowEvent({
          flowId: `bulk-${i}`,
          appId: 'app-2',
          timestamp: T0 + i,
          userId: i % 2 ? 'bob' : 'carol',
        }),
      ),
      flowEvent({ flowId: 'alice-old', timestamp: T0, userId: 'alice' }),
      flowEvent({ flowId: 'other-tenant', tenantId: 'tenant-b', appId: 'app-1', timestamp: T0 + 5 }),
      flowEvent({ flowId: 'b-app', tenantId: 'tenant-b', appId: 'app-b', timestamp: T0 + 5 }),
    ]);
  });
  afterAll(() => h.close());

  const valid = { appId: 'app-1', credentialsId: 'cred-a', timeStart: T0, timeEnd: T0 + 60_000 };
  const post = async (body: unknown, raw?: string) => {
    const res = await fetch(`${h.url}${ACTIVITY_LOGS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw ?? JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: JSON response bodies, asserted member by member
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('returns one spec 2.4 record per flow, newest first, with total = number returned', async () => {
    const { status, body } = await post(valid);
    assert.equal(status, 200);
    assert.deepEqual(
      body.activityLogs.map((r: { id: string }) => r.id),
      ['flow-full', 'alice-old'],
    );
    assert.equal(body.total, 2);
    const r = body.activityLogs[0];
    assert.deepEqual(Object.keys(r), [
      'id',
      'userId',
      'userAlias',
      'applicationId',
      'businessUnit',
      'timestamp',
      'accessingDevice',
      'accessingDeviceInfo',
      'accessingDeviceLocation',
      'accessingIp',
      'authMethodType',
      'consentDecision',
      'failureReason',
      'flowType',
      'isNewAuthenticationDeviceForRP',
      'status',
      'events',
    ]);
    assert.equal(r.businessUnit, 'tenant-a');
    assert.equal(r.applicationId, 'app-1');
    assert.equal(r.timestamp, T0 + 10_000);
    assert.deepEqual(r.accessingDeviceLocation, {
      lat: 52.37,
      lng: 4.89,
      city: 'Amsterdam',
      country: 'NL',
      source: 'ip',
    });
    assert.deepEqual(r.accessingDeviceInfo, {
      osType: 'macOS',
      osVersion: '14',
      browserType: 'Chrome',
      browserVersion: '120',
    });
    assert.equal(r.isNewAuthenticationDeviceForRP, false);
    assert.deepEqual(r.events[0], {
      id: 'flow-full-e1',
      timestamp: T0 + 10_000,
      payload: { flowId: 'flow-full', details: { action: 'auth_start_oidc', clientIp: '203.0.113.7' } },
    });
  });

  it('filters by userId and userAlias; timeStart is inclusive and timeEnd exclusive', async () => {
    const ids = async (extra: object) =>
      (await post({ ...valid, ...extra })).body.activityLogs.map((r: { id: string }) => r.id);
    assert.deepEqual(await ids({ userId: 'alice' }), ['flow-full', 'alice-old']);
    assert.deepEqual(await ids({ userAlias: 'al' }), ['flow-full']);
    assert.deepEqual(await ids({ timeStart: T0 + 10_000 }), ['flow-full']);
    assert.deepEqual(await ids({ timeEnd: T0 + 10_000 }), ['alice-old']);
  });

  it('pages with skip counted from the newest, at most 5000 per page, 100 by default', async () => {
    const page = async (extra: object) => (await post({ ...valid, appId: 'app-2', ...extra })).body;
    assert.equal((await page({})).total, 100);
    const big = await page({ pageSize: 5000 });
    assert.equal(big.total, 5000);
    assert.equal(big.activityLogs[0].id, 'bulk-5099');
    const skipped = await page({ pageSize: 2, skip: 3 });
    assert.deepEqual(
      skipped.activityLogs.map((r: { id: string }) => r.id),
      ['bulk-5096', 'bulk-5095'],
    );
    const bobs = await page({ pageSize: 5000, userId: 'bob' });
    assert.equal(bobs.total, 2550);
  });

  it("shows only the token's own tenant: another tenant's flows in an app of the same id stay hidden", async () => {
    const { body } = await post({ ...valid, timeEnd: T0 + 6 });
    assert.deepEqual(
      body.activityLogs.map((r: { id: string }) => r.id),
      ['alice-old'],
    );
  });

  it('refuses an app of another tenant with 403, like an unknown app', async () => {
    for (const appId of ['app-b', 'no-such-app']) {
      const { status, body } = await post({ ...valid, appId });
      assert.equal(status, 403);
      assert.equal(body.status, 'error');
      assert.equal(body.error.code, 'forbidden');
    }
  });

  it('refuses a credentialsId other than the token’s with 403', async () => {
    const { status, body } = await post({ ...valid, credentialsId: 'cred-other' });
    assert.equal(status, 403);
    assert.equal(body.error.code, 'forbidden');
  });

  const violations: [string, Record<string, unknown>, string][] = [
    ['appId missing', { appId: undefined }, 'appId'],
    ['appId not a string', { appId: 7 }, 'appId'],
    ['credentialsId missing', { credentialsId: undefined }, 'credentialsId'],
    ['timeStart missing', { timeStart: undefined }, 'timeStart'],
    ['timeStart a string', { timeStart: String(T0) }, 'timeStart'],
    ['timeStart negative', { timeStart: -1 }, 'timeStart'],
    ['timeStart fractional', { timeStart: 1.5 }, 'timeStart'],
    ['timeEnd missing', { timeEnd: undefined }, 'timeEnd'],
    ['timeEnd equal to timeStart', { timeEnd: T0 }, 'timeEnd'],
    ['timeEnd before timeStart', { timeEnd: T0 - 1 }, 'timeEnd'],
    ['pageSize over 5000', { pageSize: 5001 }, 'pageSize'],
    ['pageSize 0', { pageSize: 0 }, 'pageSize'],
    ['pageSize fractional', { pageSize: 2.5 }, 'pageSize'],
    ['skip negative', { skip: -1 }, 'skip'],
    ['skip a string', { skip: '1' }, 'skip'],
    ['userId empty', { userId: '' }, 'userId'],
    ['userAlias not a string', { userAlias: ['a'] }, 'userAlias'],
  ];
  for (const [what, change, field] of violations) {
    it(`400 names ${field} when ${what}`, async () => {
      assertNamesField(await post({ ...valid, ...change }), field);
    });
  }

  it('400 in the management shape for a body that is not JSON, or not an object', async () => {
    const broken = await post(undefined, '{"appId":');
    assert.equal(broken.status, 400);
    assert.deepEqual(broken.body.error.fields, { body: 'is not valid JSON' });
    const array = await post([valid]);
    assert.equal(array.status, 400);
    assert.deepEqual(Object.keys(array.body.error.fields), ['body']);
  });
});

describe('POST /api/v1/mgmt/activity-logs: the email support sees is never in the spec answer', () => {
  let h: LogsHarness;
  beforeAll(async () => {
    h = await startLogsHarness((activityLogs) => createActivityLogsRoutes({ activityLogs, apps }));
    await h.activityLogs.applyFlowEvents([
      flowEvent({ flowId: 'about-alice', timestamp: T0, userId: 'alice', email: 'alice@example.com' }),
    ]);
  });
  afterAll(() => h.close());

  it('the record keeps its spec members; no email member, no address anywhere in the body', async () => {
    const res = await fetch(`${h.url}${ACTIVITY_LOGS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appId: 'app-1', credentialsId: 'cred-a', timeStart: T0, timeEnd: T0 + 1000 }),
    });
    const text = await res.text();
    assert.equal(res.status, 200);
    const record = JSON.parse(text).activityLogs[0];
    assert.equal(record.id, 'about-alice');
    assert.equal(record.userId, 'alice');
    assert.equal('email' in record, false);
    assert.equal(text.includes('alice@example.com'), false);
  });
});
