import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import type { ActivityRecord } from '../domain/activity-record';
import { type FlowListFilter, type FlowPosition, newestFirst } from '../domain/flow-query';
import { type MakeAdapter, openedAdapter } from '../testing/contract';
import { flowEvent } from '../testing/fixtures';
import type { ActivityLogRepository } from './activity-logs.repository';

const T0 = 1_700_000_000_000;

/** Support's reads (listFlows, getFlow, exportFlows): run against the in-memory and the Mongo adapter. */
export function supportFlowsContract(adapter: string, make: MakeAdapter<ActivityLogRepository>): void {
  describe(`ActivityLogRepository support reads: ${adapter}`, () => {
    const repo = openedAdapter(make);
    const tenant = () => `t-${randomUUID()}`;
    const ids = (records: ActivityRecord[]) => records.map((r) => r.id);
    const list = (tenantId: string, filter: FlowListFilter = {}, limit = 100, after?: FlowPosition) =>
      repo.listFlows({ tenantId, filter, limit, after }).then(ids);
    const exportAll = async (tenantId: string, filter: FlowListFilter, snapshotAt: number, batchSize = 3) => {
      const out: string[] = [];
      for await (const batch of repo.exportFlows({ tenantId, filter, snapshotAt, batchSize })) {
        assert.ok(batch.length <= batchSize);
        // Taken out of the batch as ExportFlows does (it splices each chunk out as it writes): the batch is the
        // consumer's, and the adapter must not read it again (Mongo's stopped after one batch when it did).
        out.push(...ids(batch.splice(0)));
      }
      return out;
    };
    /** n one-event flows f0..f(n-1) at T0 + i; every third one at the same time as the one before. */
    const seed = async (tenantId: string, n: number, extra: (i: number) => object = () => ({})) => {
      const events = Array.from({ length: n }, (_, i) =>
        flowEvent({
          tenantId,
          flowId: `f${String(i).padStart(3, '0')}`,
          timestamp: T0 + i - (i % 3 === 2 ? 1 : 0),
          ...extra(i),
        }),
      );
      await repo.applyFlowEvents(events);
    };

    it('lists newest first by (timestamp, id), ties broken by id, and pages by position', async () => {
      const tenantId = tenant();
      await seed(tenantId, 10);
      const all = await list(tenantId);
      assert.equal(all.length, 10);
      const records = await repo.listFlows({ tenantId, filter: {}, limit: 100 });
      assert.deepEqual(ids([...records].sort(newestFirst)), all, 'in (timestamp, id) order, newest first');
      assert.deepEqual(all.slice(0, 3), ['f009', 'f008', 'f007']);
      assert.deepEqual(all.slice(4, 6), ['f005', 'f004'], 'f005 and f004 share a timestamp: higher id first');
      const first = records.slice(0, 4);
      const last = first[first.length - 1]!;
      assert.deepEqual(await list(tenantId, {}, 4, last), all.slice(4, 8));
    });

    it('a page after a position stays the same while newer records arrive', async () => {
      const tenantId = tenant();
      await seed(tenantId, 6);
      const page1 = await repo.listFlows({ tenantId, filter: {}, limit: 3 });
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'newer', timestamp: T0 + 1000 }),
        flowEvent({
          tenantId,
          flowId: 'f000',
          timestamp: T0 + 5000,
          action: 'auth_complete',
          status: 'success',
        }),
      ]);
      const at = page1[2]!;
      assert.deepEqual(await list(tenantId, {}, 3, at), ['f002', 'f001', 'f000']);
    });

    it("filters by app, user, status, flow type, method and time; never another tenant's record", async () => {
      const tenantId = tenant();
      const other = tenant();
      await seed(tenantId, 8, (i) => ({
        appId: i % 2 ? 'app-odd' : 'app-even',
        userId: i < 4 ? 'alice' : 'bob',
        status: i % 4 === 0 ? 'failure' : 'success',
        flowType: i === 5 ? 'transaction' : 'authentication',
        authMethodType: i === 6 ? 'fido2' : 'email_otp',
      }));
      await seed(other, 8, () => ({ appId: 'app-odd', userId: 'alice', status: 'failure' }));
      assert.deepEqual(await list(tenantId, { appId: 'app-odd' }), ['f007', 'f005', 'f003', 'f001']);
      assert.deepEqual(await list(tenantId, { userId: 'alice' }), ['f003', 'f002', 'f001', 'f000']);
      assert.deepEqual(await list(tenantId, { status: 'failure' }), ['f004', 'f000']);
      assert.deepEqual(await list(tenantId, { userId: 'bob', status: 'failure' }), ['f004']);
      assert.deepEqual(await list(tenantId, { flowType: 'transaction' }), ['f005']);
      assert.deepEqual(await list(tenantId, { authMethodType: 'fido2' }), ['f006']);
      assert.deepEqual(await list(tenantId, { appId: 'app-odd', userId: 'alice' }), ['f003', 'f001']);
      assert.deepEqual(await list(tenantId, { from: T0 + 3, to: T0 + 6 }), ['f005', 'f004', 'f003']);
      assert.deepEqual(await list(tenant(), {}), [], 'a tenant with no records has none');
    });

    it('filter values are matched whole: operators and patterns match nothing', async () => {
      const tenantId = tenant();
      await seed(tenantId, 3, () => ({ userId: 'alice' }));
      for (const hostile of ['{"$ne":null}', '{"$gt":""}', '.*', '^a', 'alic.', 'ALICE']) {
        assert.deepEqual(await list(tenantId, { userId: hostile }), [], hostile);
        assert.deepEqual(await list(tenantId, { appId: hostile, status: hostile }), [], hostile);
        assert.equal(await repo.getFlow(tenantId, hostile), undefined);
      }
    });

    it('a flow whose person changes is listed under the latest person only', async () => {
      const tenantId = tenant();
      await repo.applyFlowEvents([flowEvent({ tenantId, flowId: 'moved', userId: 'first', timestamp: T0 })]);
      assert.deepEqual(await list(tenantId, { userId: 'first' }), ['moved']);
      await repo.applyFlowEvents([
        flowEvent({
          tenantId,
          flowId: 'moved',
          userId: 'second',
          timestamp: T0 + 1,
          action: 'auth_complete',
        }),
      ]);
      assert.deepEqual(await list(tenantId, { userId: 'first' }), []);
      assert.deepEqual(await list(tenantId, { userId: 'second' }), ['moved']);
      assert.deepEqual(await exportAll(tenantId, { userId: 'first' }, T0 + 10), []);
    });

    it("gets one flow of the tenant; another tenant's flow is undefined like an unknown one", async () => {
      const tenantId = tenant();
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'mine', userId: 'u1', email: 'alice@example.com' }),
      ]);
      const got = await repo.getFlow(tenantId, 'mine');
      assert.equal(got?.id, 'mine');
      assert.equal(got?.userId, 'u1');
      assert.equal(got?.email, 'alice@example.com', 'the email the flow was about is kept');
      assert.equal(await repo.getFlow(tenant(), 'mine'), undefined);
      assert.equal(await repo.getFlow(tenantId, 'unknown'), undefined);
    });

    it('exports the snapshot at its start in batches: records arriving meanwhile neither repeat nor slip in', async () => {
      const tenantId = tenant();
      await seed(tenantId, 20);
      const snapshotAt = T0 + 100;
      const seen: string[] = [];
      let round = 0;
      for await (const batch of repo.exportFlows({ tenantId, filter: {}, snapshotAt, batchSize: 4 })) {
        seen.push(...ids(batch.splice(0)));
        round++;
        // While the export runs: new flows, and later events of flows already exported and not yet exported.
        await repo.applyFlowEvents([
          flowEvent({ tenantId, flowId: `late-${round}`, timestamp: snapshotAt + round }),
          flowEvent({ tenantId, flowId: 'f019', timestamp: T0 + 500 + round, action: 'auth_complete' }),
          flowEvent({ tenantId, flowId: 'f001', timestamp: T0 + 500 + round, action: 'auth_complete' }),
        ]);
      }
      const expected = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(3, '0')}`);
      assert.equal(seen.length, 20, 'none twice');
      assert.deepEqual([...seen].sort(), expected, 'none skipped, none added');
      assert.deepEqual(await exportAll(tenant(), {}, snapshotAt), [], "another tenant's export is empty");
      assert.deepEqual(await exportAll(tenantId, { status: 'success' }, snapshotAt), []);
      const after = await exportAll(tenantId, {}, snapshotAt + 1000);
      assert.equal(after.length, 20 + round, 'a later export has the new flows');
    });
  });
}
