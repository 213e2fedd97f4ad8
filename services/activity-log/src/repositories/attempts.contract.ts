import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import type { FlowListFilter } from '../domain/flow-query';
import { type MakeAdapter, openedAdapter } from '../testing/contract';
import { flowEvent } from '../testing/fixtures';
import type { ActivityLogRepository } from './activity-logs.repository';

const T0 = 1_700_000_000_000;

/**
 * Issue 38: the address typed in a flow (attemptedEmail), account or not. Listed, counted and exported by it,
 * erased by it and with the person; tenant by tenant. Runs against memory, SQLite and Mongo.
 */
export function attemptsContract(adapter: string, make: MakeAdapter<ActivityLogRepository>): void {
  describe(`ActivityLogRepository attempts by typed address: ${adapter}`, () => {
    const repo = openedAdapter(make);
    const tenant = () => `t-${randomUUID()}`;
    const list = (tenantId: string, filter: FlowListFilter) =>
      repo.listFlows({ tenantId, filter, limit: 100 }).then((rs) => rs.map((r) => r.id));
    const exported = async (tenantId: string, filter: FlowListFilter) => {
      const out: string[] = [];
      for await (const batch of repo.exportFlows({ tenantId, filter, snapshotAt: T0 + 1000, batchSize: 2 }))
        out.push(...batch.map((r) => r.id));
      return out;
    };
    /** Failed and abandoned attempts of an address with no account, one success of a person, another tenant. */
    const seed = async (tenantId: string, other: string) => {
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'a1', timestamp: T0 + 1, attemptedEmail: 'ghost@example.com' }),
        flowEvent({
          tenantId,
          flowId: 'a2',
          timestamp: T0 + 2,
          action: 'email_verification_failure',
          status: 'failure',
          attemptedEmail: 'ghost@example.com',
        }),
        flowEvent({
          tenantId,
          flowId: 'a3',
          timestamp: T0 + 3,
          appId: 'app-2',
          attemptedEmail: 'ghost@example.com',
        }),
        flowEvent({
          tenantId,
          flowId: 'b1',
          timestamp: T0 + 4,
          userId: 'u-bob',
          attemptedEmail: 'bob@example.com',
        }),
        flowEvent({ tenantId, flowId: 'b2', timestamp: T0 + 5, userId: 'u-bob' }),
        flowEvent({ tenantId, flowId: 'n1', timestamp: T0 + 6 }),
        flowEvent({ tenantId: other, flowId: 'x1', timestamp: T0 + 7, attemptedEmail: 'ghost@example.com' }),
      ]);
    };

    it('keeps the typed address on the record and lists, counts and exports by it, newest first', async () => {
      const [tenantId, other] = [tenant(), tenant()];
      await seed(tenantId, other);
      assert.equal((await repo.getFlow(tenantId, 'a2'))?.attemptedEmail, 'ghost@example.com');
      assert.equal((await repo.getFlow(tenantId, 'a2'))?.userId, undefined, 'no account named');
      assert.deepEqual(await list(tenantId, { attemptedEmail: 'ghost@example.com' }), ['a3', 'a2', 'a1']);
      assert.deepEqual(await list(tenantId, { attemptedEmail: 'ghost@example.com', status: 'failure' }), [
        'a2',
      ]);
      assert.deepEqual(await list(tenantId, { attemptedEmail: 'ghost@example.com', appId: 'app-2' }), ['a3']);
      assert.deepEqual(await list(tenantId, { attemptedEmail: 'nobody@example.com' }), []);
      assert.equal(await repo.countFlows(tenantId, { attemptedEmail: 'ghost@example.com' }), 3);
      assert.equal(await repo.countFlows(other, { attemptedEmail: 'ghost@example.com' }), 1);
      assert.equal(await repo.countFlows(tenantId, { userId: 'u-bob' }), 2);
      assert.deepEqual(await exported(tenantId, { attemptedEmail: 'ghost@example.com' }), ['a3', 'a2', 'a1']);
    });

    it('a later event with another address moves the record to that address', async () => {
      const tenantId = tenant();
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'm', timestamp: T0, attemptedEmail: 'typo@example.com' }),
      ]);
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'm', timestamp: T0 + 5, attemptedEmail: 'right@example.com' }),
      ]);
      assert.deepEqual(await list(tenantId, { attemptedEmail: 'typo@example.com' }), []);
      assert.deepEqual(await list(tenantId, { attemptedEmail: 'right@example.com' }), ['m']);
      assert.equal(await repo.countFlows(tenantId, { attemptedEmail: 'typo@example.com' }), 0);
    });

    it("erases an address's attempts in its tenant only, and nothing else", async () => {
      const [tenantId, other] = [tenant(), tenant()];
      await seed(tenantId, other);
      assert.equal(await repo.eraseFlows(tenantId, { attemptedEmail: 'ghost@example.com' }), 3);
      assert.deepEqual(await list(tenantId, { attemptedEmail: 'ghost@example.com' }), []);
      assert.equal(await repo.getFlow(tenantId, 'a1'), undefined);
      assert.deepEqual((await list(tenantId, {})).sort(), ['b1', 'b2', 'n1']);
      assert.deepEqual(await list(other, { attemptedEmail: 'ghost@example.com' }), ['x1']);
      assert.equal(
        await repo.eraseFlows(tenantId, { attemptedEmail: 'ghost@example.com' }),
        0,
        'again: none',
      );
    });

    it("erases a person's records with those of their address, each once", async () => {
      const [tenantId, other] = [tenant(), tenant()];
      await seed(tenantId, other);
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'b0', timestamp: T0, attemptedEmail: 'bob@example.com' }),
      ]);
      const erased = await repo.eraseFlows(tenantId, { userId: 'u-bob', attemptedEmail: 'bob@example.com' });
      assert.equal(erased, 3, 'b1 (both), b2 (user), b0 (address, before the account)');
      assert.deepEqual((await list(tenantId, {})).sort(), ['a1', 'a2', 'a3', 'n1']);
      assert.equal(await repo.eraseFlows(tenantId, {}), 0, 'an empty target erases nothing');
      assert.equal((await list(tenantId, {})).length, 4);
    });

    it('finds the distinct addresses starting with a prefix, in address order, in its tenant only, erased ones gone', async () => {
      const [tenantId, other] = [tenant(), tenant()];
      await seed(tenantId, other);
      await repo.applyFlowEvents([
        flowEvent({ tenantId, flowId: 'g1', timestamp: T0 + 8, attemptedEmail: 'ghosted@example.com' }),
        flowEvent({ tenantId, flowId: 'g2', timestamp: T0 + 9, attemptedEmail: 'gho' }),
        flowEvent({ tenantId, flowId: 'g3', timestamp: T0 + 10, attemptedEmail: 'ghp@example.com' }),
        flowEvent({
          tenantId: other,
          flowId: 'g4',
          timestamp: T0 + 11,
          attemptedEmail: 'ghost2@example.com',
        }),
      ]);
      assert.deepEqual(await repo.attemptedEmails(tenantId, 'gho', 10), [
        'gho',
        'ghost@example.com',
        'ghosted@example.com',
      ]);
      assert.deepEqual(await repo.attemptedEmails(tenantId, 'gho', 2), ['gho', 'ghost@example.com']);
      assert.deepEqual(await repo.attemptedEmails(tenantId, 'ghost@', 10), ['ghost@example.com']);
      assert.deepEqual(await repo.attemptedEmails(tenantId, 'zzz', 10), []);
      assert.deepEqual(await repo.attemptedEmails(other, 'gho', 10), [
        'ghost2@example.com',
        'ghost@example.com',
      ]);
      await repo.eraseFlows(tenantId, { attemptedEmail: 'ghost@example.com' });
      assert.deepEqual(await repo.attemptedEmails(tenantId, 'gho', 10), ['gho', 'ghosted@example.com']);
    });
  });
}
