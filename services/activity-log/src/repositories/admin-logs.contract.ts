import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import type { AdminLogQuery } from '../domain/activity-record';
import { type MakeAdapter, openedAdapter } from '../testing/contract';
import { adminEvent } from '../testing/fixtures';
import type { AdminLogRepository } from './admin-logs.repository';

const T0 = 1_700_000_000_000;

/** Behaviour every AdminLogRepository adapter must have; run against the in-memory and the Mongo adapter. */
export function adminLogRepositoryContract(adapter: string, make: MakeAdapter<AdminLogRepository>): void {
  describe(`AdminLogRepository contract: ${adapter}`, () => {
    const repo = openedAdapter(make);
    const tenant = () => `t-${randomUUID()}`;
    const query = (tenantId: string, q: Partial<AdminLogQuery> = {}) =>
      repo.query({ tenantId, fromTime: 0, toTime: T0 * 2, skip: 0, take: 300, ...q });

    it('stores an event once however often it is appended, and returns it as stored', async () => {
      const tenantId = tenant();
      const e = adminEvent({ tenantId });
      await repo.append([e, e]);
      await repo.append([{ ...e, adminEmail: 'changed@example.com' }]);
      assert.deepEqual(await query(tenantId), { events: [e], total: 1 });
    });

    it('pages newest first within [fromTime, toTime); total counts the whole window', async () => {
      const tenantId = tenant();
      const events = [0, 1, 2, 3, 4].map((i) => adminEvent({ tenantId, id: `a${i}`, timestamp: T0 + i }));
      await repo.append(events);
      const page = await query(tenantId, { fromTime: T0 + 1, toTime: T0 + 4, skip: 1, take: 1 });
      assert.deepEqual(
        page.events.map((e) => e.id),
        ['a2'],
      );
      assert.equal(page.total, 3);
      const first = await query(tenantId, { take: 2 });
      assert.deepEqual(
        first.events.map((e) => e.id),
        ['a4', 'a3'],
      );
      assert.equal(first.total, 5);
    });

    it('appends a batch of more than 100 events, twice, and keeps each once', async () => {
      const tenantId = tenant();
      const events = Array.from({ length: 150 }, (_, i) =>
        adminEvent({ tenantId, id: `m${i}`, timestamp: T0 + i }),
      );
      await repo.append(events);
      await repo.append(events);
      assert.equal((await query(tenantId, { take: 1 })).total, 150);
    });

    it('never shows one tenant the events of another', async () => {
      const [ta, tb] = [tenant(), tenant()];
      await repo.append([adminEvent({ tenantId: ta, id: 'same' }), adminEvent({ tenantId: tb, id: 'same' })]);
      const page = await query(ta);
      assert.equal(page.total, 1);
      assert.equal(page.events[0]?.tenantId, ta);
    });
  });
}
