import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { createLogger } from '@sesame/platform';
import { adminEvent, flowEvent } from '../testing/fixtures';
import { openRepositories } from './open-repositories';

const DAY = 86_400_000;
const T0 = 1_700_000_000_000;

describe('in-memory repositories keep logs for their retention, as Mongo does', () => {
  it('purgeExpired deletes activity records past SESAME_ACTIVITY_RETENTION_DAYS and admin events past SESAME_ADMIN_RETENTION_DAYS', async () => {
    const repos = await openRepositories(undefined, {
      activityRetentionDays: 1,
      adminRetentionDays: 3,
      logger: createLogger({ service: 'activity-log', level: 'silent' }),
    });
    assert.ok(repos.purgeExpired, 'the service runs the purge for the in-memory store too');
    await repos.activityLogs.applyFlowEvents([
      flowEvent({ tenantId: 't', flowId: 'old', eventId: 'o1', timestamp: T0 }),
      flowEvent({ tenantId: 't', flowId: 'new', eventId: 'n1', timestamp: T0 + DAY }),
    ]);
    await repos.adminLogs.append([
      adminEvent({ tenantId: 't', id: 'a-old', timestamp: T0 }),
      adminEvent({ tenantId: 't', id: 'a-new', timestamp: T0 + DAY }),
    ]);
    const flows = async () =>
      (
        await repos.activityLogs.query({
          tenantId: 't',
          appId: 'app-1',
          timeStart: 0,
          timeEnd: T0 * 2,
          skip: 0,
          pageSize: 10,
        })
      ).map((r) => r.id);
    const admins = async () =>
      (
        await repos.adminLogs.query({ tenantId: 't', fromTime: 0, toTime: T0 * 2, skip: 0, take: 10 })
      ).events.map((e) => e.id);

    // Exactly at the end of its retention a record is still kept; a millisecond later it goes.
    assert.equal(await repos.purgeExpired(T0 + DAY), 0);
    assert.equal(await repos.purgeExpired(T0 + DAY + 1), 1);
    assert.deepEqual(await flows(), ['new']);
    assert.deepEqual(await admins(), ['a-new', 'a-old'], 'admin events keep their own, longer retention');
    assert.equal(await repos.purgeExpired(T0 + 3 * DAY + 1), 1 + 1);
    assert.deepEqual(await flows(), []);
    assert.deepEqual(await admins(), ['a-new']);
  });
});

describe('with the embedded engine and no Mongo connection', () => {
  const engines = tempEngines('activity');
  const logger = createLogger({ service: 'activity-log', level: 'silent' });

  it('stores logs in the engine: the next open of the data directory reads them, and purges by retention', async () => {
    const dir = engines.dir();
    const opts = { activityRetentionDays: 1, adminRetentionDays: 1, logger };
    const engine = engines.open(dir);
    const first = await openRepositories(undefined, { ...opts, embedded: engine });
    await first.activityLogs.applyFlowEvents([
      flowEvent({ tenantId: 't', flowId: 'f1', eventId: 'e1', timestamp: T0 }),
    ]);
    await first.adminLogs.append([adminEvent({ tenantId: 't', id: 'a1', timestamp: T0 })]);
    engine.close();

    const again = await openRepositories(undefined, { ...opts, embedded: engines.open(dir) });
    assert.equal((await again.activityLogs.getFlow('t', 'f1'))?.id, 'f1');
    const admin = () =>
      again.adminLogs.query({ tenantId: 't', fromTime: 0, toTime: T0 * 2, skip: 0, take: 10 });
    assert.equal((await admin()).total, 1);
    assert.ok(again.purgeExpired, 'the engine has no TTL: the service purges');
    assert.equal(await again.purgeExpired(T0 + DAY + 1), 2);
    assert.equal(await again.activityLogs.getFlow('t', 'f1'), undefined);
    assert.equal((await admin()).total, 0);
  });
});
