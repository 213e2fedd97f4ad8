import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import type { ActivityLogQuery, ActivityRecord } from '../domain/activity-record';
import { type MakeAdapter, openedAdapter } from '../testing/contract';
import { authenticationFlow, flowEvent } from '../testing/fixtures';
import type { ActivityLogRepository } from './activity-logs.repository';

const T0 = 1_700_000_000_000;

/** Behaviour every ActivityLogRepository adapter must have; run against the in-memory and the Mongo adapter. */
export function activityLogRepositoryContract(
  adapter: string,
  make: MakeAdapter<ActivityLogRepository>,
): void {
  describe(`ActivityLogRepository contract: ${adapter}`, () => {
    const repo = openedAdapter(make);

    const tenant = () => `t-${randomUUID()}`;
    const all = (tenantId: string, q: Partial<ActivityLogQuery> = {}) =>
      repo.query({ tenantId, appId: 'app-1', timeStart: 0, timeEnd: T0 * 2, skip: 0, pageSize: 5000, ...q });

    it('folds a flow into one record: id = flowId, first event time, events in order, latest facts', async () => {
      const tenantId = tenant();
      await repo.applyFlowEvents(authenticationFlow('f1', T0, { tenantId }));
      const records = await all(tenantId);
      assert.equal(records.length, 1);
      const r = records[0]!;
      assert.deepEqual(
        { ...r, events: r.events.map((e) => e.id) },
        {
          id: 'f1',
          tenantId,
          appId: 'app-1',
          timestamp: T0,
          flowType: 'authentication',
          accessingDevice: 'macOS 14 Chrome 120',
          accessingDeviceInfo: {
            osType: 'macOS',
            osVersion: '14',
            browserType: 'Chrome',
            browserVersion: '120',
          },
          accessingDeviceLocation: { lat: 52.37, lng: 4.89, city: 'Amsterdam', country: 'NL', source: 'ip' },
          accessingIp: '203.0.113.7',
          consentDecision: 'approve',
          userId: 'user-1',
          authMethodType: 'fido2',
          status: 'success',
          failureReason: 'N/A',
          isNewAuthenticationDeviceForRP: false,
          events: ['f1-e1', 'f1-e2', 'f1-e3', 'f1-e4'],
        },
      );
      assert.deepEqual(r.events[2], {
        id: 'f1-e3',
        timestamp: T0 + 2000,
        payload: {
          flowId: 'f1',
          details: { action: 'desktop_consent', clientIp: '203.0.113.7', screen: 'consent', attempt: 1 },
        },
      });
    });

    it('keeps what it stored when the caller changes the events or a returned record afterwards', async () => {
      const tenantId = tenant();
      const events = authenticationFlow('f-own', T0, { tenantId });
      await repo.applyFlowEvents(events);
      const before = await all(tenantId);
      for (const e of events) {
        e.details.step = 'changed';
        if (e.accessingDeviceInfo) e.accessingDeviceInfo.osType = 'changed';
        if (e.accessingDeviceLocation) e.accessingDeviceLocation.city = 'changed';
      }
      const returned = (await all(tenantId))[0]!;
      returned.events.length = 0;
      returned.accessingDeviceInfo!.browserType = 'changed';
      assert.deepEqual(await all(tenantId), before);
      // and a later event folds onto the stored state, not onto the changed objects
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'f-own', eventId: 'f-own-z', timestamp: T0 + 9 }),
      ]);
      const after = (await all(tenantId))[0]!;
      assert.equal(after.events.length, before[0]!.events.length + 1);
      assert.deepEqual(after.accessingDeviceInfo, before[0]!.accessingDeviceInfo);
    });

    it('gives the same record whatever the order, split or repetition of deliveries', async () => {
      const orders = [
        (es: ReturnType<typeof authenticationFlow>) => [es],
        (es: ReturnType<typeof authenticationFlow>) => [[...es].reverse()],
        (es: ReturnType<typeof authenticationFlow>) => es.map((e) => [e]).reverse(),
        (es: ReturnType<typeof authenticationFlow>) => [
          [es[2]!, es[0]!],
          [es[3]!, es[0]!],
          es,
          [es[1]!, es[1]!],
        ],
      ];
      const results: ActivityRecord[] = [];
      for (const order of orders) {
        const tenantId = tenant();
        for (const batch of order(authenticationFlow('f-order', T0, { tenantId })))
          await repo.applyFlowEvents(batch);
        const records = await all(tenantId);
        assert.equal(records.length, 1);
        results.push({ ...records[0]!, tenantId: 'x' });
      }
      for (const r of results.slice(1)) assert.deepEqual(r, results[0]);
      assert.equal(results[0]!.events.length, 4);
      assert.equal(results[0]!.status, 'success');
    });

    it('never duplicates an event that is delivered twice, in one batch or in two', async () => {
      const tenantId = tenant();
      const e = flowEvent({ tenantId, flowId: 'f-dup' });
      await repo.applyFlowEvents([e, e]);
      await repo.applyFlowEvents([e]);
      const [r] = await all(tenantId);
      assert.deepEqual(
        r?.events.map((x) => x.id),
        [e.eventId],
      );
    });

    it('takes each fact from the latest event carrying it; ties on time go to the larger event id', async () => {
      const tenantId = tenant();
      const a = flowEvent({
        tenantId,
        flowId: 'f-tie',
        eventId: 'a',
        timestamp: T0,
        status: 'failure',
        userAlias: 'x',
      });
      const b = flowEvent({ tenantId, flowId: 'f-tie', eventId: 'b', timestamp: T0, status: 'success' });
      const c = flowEvent({ tenantId, flowId: 'f-tie', eventId: 'c', timestamp: T0 - 5, status: 'blocked' });
      await repo.applyFlowEvents([b]);
      await repo.applyFlowEvents([a, c]);
      const [r] = await all(tenantId);
      assert.equal(r?.status, 'success');
      assert.equal(r?.userAlias, 'x', 'a later event without the fact does not clear it');
      assert.equal(r?.timestamp, T0 - 5);
      assert.deepEqual(
        r?.events.map((x) => x.id),
        ['c', 'a', 'b'],
      );
    });

    it('no longer shows the errorCode and failureReason of a failure the flow got past once it succeeds', async () => {
      const tenantId = tenant();
      const f = { tenantId, flowId: 'f-recovered' };
      await repo.applyFlowEvents([
        flowEvent({ ...f, eventId: 'start', timestamp: T0, status: 'incomplete' }),
        flowEvent({
          ...f,
          eventId: 'dead-code',
          timestamp: T0 + 1,
          status: 'failure',
          errorCode: 'auth_failure',
          failureReason: 'code dead',
        }),
      ]);
      const [failed] = await all(tenantId);
      assert.deepEqual(
        [failed?.status, failed?.errorCode, failed?.failureReason],
        ['failure', 'auth_failure', 'code dead'],
      );
      await repo.applyFlowEvents([
        flowEvent({ ...f, eventId: 'done', timestamp: T0 + 2, status: 'success' }),
      ]);
      const [done] = await all(tenantId);
      assert.equal(done?.status, 'success');
      assert.equal(done?.errorCode, undefined);
      assert.equal(done?.failureReason, undefined);
    });

    it('lists newest first within [timeStart, timeEnd), with skip counted from the newest', async () => {
      const tenantId = tenant();
      const events = [0, 1, 2, 3, 4].map((i) =>
        flowEvent({ tenantId, flowId: `f${i}`, timestamp: T0 + i * 1000 }),
      );
      await repo.applyFlowEvents(events);
      const ids = async (q: Partial<ActivityLogQuery>) => (await all(tenantId, q)).map((r) => r.id);
      assert.deepEqual(await ids({}), ['f4', 'f3', 'f2', 'f1', 'f0']);
      assert.deepEqual(await ids({ timeStart: T0 + 1000, timeEnd: T0 + 4000 }), ['f3', 'f2', 'f1']);
      assert.deepEqual(await ids({ skip: 1, pageSize: 2 }), ['f3', 'f2']);
      assert.deepEqual(await ids({ skip: 5 }), []);
    });

    it('filters by userId and by userAlias', async () => {
      const tenantId = tenant();
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'u1', userId: 'alice', userAlias: 'al', timestamp: T0 }),
        flowEvent({ tenantId, flowId: 'u2', userId: 'bob', userAlias: 'bo', timestamp: T0 + 1 }),
        flowEvent({ tenantId, flowId: 'u3', userId: 'alice', timestamp: T0 + 2 }),
      ]);
      const ids = async (q: Partial<ActivityLogQuery>) => (await all(tenantId, q)).map((r) => r.id);
      assert.deepEqual(await ids({ userId: 'alice' }), ['u3', 'u1']);
      assert.deepEqual(await ids({ userAlias: 'bo' }), ['u2']);
      assert.deepEqual(await ids({ userId: 'alice', userAlias: 'bo' }), []);
    });

    it('keeps tenants and apps apart, even for the same flow id', async () => {
      const [ta, tb] = [tenant(), tenant()];
      await repo.applyFlowEvents([
        flowEvent({ tenantId: ta, flowId: 'same', userId: 'in-a' }),
        flowEvent({ tenantId: tb, flowId: 'same', userId: 'in-b' }),
        flowEvent({ tenantId: ta, flowId: 'other-app', appId: 'app-2' }),
      ]);
      assert.deepEqual(
        (await all(ta)).map((r) => [r.id, r.userId]),
        [['same', 'in-a']],
      );
      assert.deepEqual(
        (await all(tb)).map((r) => [r.id, r.userId]),
        [['same', 'in-b']],
      );
      assert.deepEqual(
        (await all(ta, { appId: 'app-2' })).map((r) => r.id),
        ['other-app'],
      );
    });

    it('folds a batch that updates more than 100 stored flows at once', async () => {
      const tenantId = tenant();
      const step = (n: number) =>
        Array.from({ length: 150 }, (_, i) =>
          flowEvent({ tenantId, flowId: `w${i}`, eventId: `w${i}-${n}`, timestamp: T0 + i * 10 + n }),
        );
      await repo.applyFlowEvents(step(0));
      await repo.applyFlowEvents(step(1));
      const records = await all(tenantId);
      assert.equal(records.length, 150);
      assert.ok(records.every((r) => r.events.length === 2));
    });

    it('folds a batch of many flows of several tenants in one call', async () => {
      const [ta, tb] = [tenant(), tenant()];
      const batch = [];
      for (let i = 0; i < 40; i++)
        batch.push(...authenticationFlow(`m${i}`, T0 + i, { tenantId: i % 2 ? ta : tb }));
      await repo.applyFlowEvents(batch.reverse());
      const [ra, rb] = [await all(ta), await all(tb)];
      assert.equal(ra.length, 20);
      assert.equal(rb.length, 20);
      assert.ok([...ra, ...rb].every((r) => r.events.length === 4 && r.status === 'success'));
    });
  });
}
