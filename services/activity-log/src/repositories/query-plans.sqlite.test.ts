import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import {
  ERASE_SQL,
  SqliteActivityLogRepository,
  countFlowsSql,
  listFlowsSql,
  specQuerySql,
} from './activity-logs.sqlite';
import { everyAttemptsFilter, everyFlowFilter, flowListShape, specQueryShape } from './query-shapes';

// The SQLite counterpart of query-shapes.test.ts: every statement the repository issues is planned as a
// search of an index that also gives the newest-first order (no scan of the tenant's records, no sort of
// them), whatever the filter's members, with a time range and a position or without; and the index matches
// every member query-shapes.ts says an index must match (the rest may be left to the rows found).
const engines = tempEngines('activity');

describe('activity-log SQLite plans: every query the repository issues searches an index in page order', () => {
  const engine = engines.open();
  new SqliteActivityLogRepository(engine);
  const planOf = ({ text, params }: { text: string; params: unknown[] }) =>
    (engine.db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map(
      (row) => row.detail,
    );
  const column = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const assertIndexed = (name: string, plan: string[], equality: string[]) => {
    const search = plan.find((d) => /^SEARCH activity_log_records USING INDEX activity_log_records_/.test(d));
    assert.ok(search, `${name}: ${plan.join('; ')}`);
    for (const field of equality)
      assert.ok(search.includes(`${column(field)}=?`), `${name} (${field}): ${search}`);
    assert.ok(!plan.some((d) => /TEMP B-TREE|^SCAN/.test(d)), `${name}: ${plan.join('; ')}`);
  };

  // With a position before `to` (an export's next page), the position bounds the search, not `to`.
  const ranges = {
    none: {},
    time: { from: 1, to: 2 },
    'to after the position': { to: 10 },
  };
  const filters = [...everyFlowFilter(), ...everyAttemptsFilter()].flatMap((filter) =>
    Object.entries(ranges).flatMap(([range, bounds]) =>
      [undefined, { timestamp: 5, id: 'f' }].map((after) => ({
        name: `listFlows(${Object.keys(filter).join(', ') || 'tenant'}; range ${range}${after ? '; after' : ''})`,
        query: { tenantId: 't', filter: { ...filter, ...bounds }, limit: 50, after },
      })),
    ),
  );

  it.each(filters.map((f) => [f.name, f.query] as const))('%s', (name, query) => {
    const plan = planOf(listFlowsSql(query));
    assertIndexed(name, plan, flowListShape(query.filter).equality);
    if (query.after && query.after.timestamp < (query.filter.to ?? Number.POSITIVE_INFINITY))
      assert.ok(plan[0]?.includes('(ts,flow_id)<(?,?)'), `${name}: ${plan.join('; ')}`);
  });

  it.each(
    [...everyFlowFilter(), ...everyAttemptsFilter()].map(
      (f) => [Object.keys(f).join(', ') || 'tenant', f] as const,
    ),
  )('countFlows(%s) searches the listing index', (_name, filter) => {
    const plan = planOf(countFlowsSql('t', filter));
    const search = plan.find((d) => /^SEARCH activity_log_records USING (COVERING )?INDEX /.test(d));
    assert.ok(search, plan.join('; '));
    assert.ok(!plan.some((d) => /^SCAN/.test(d)), plan.join('; '));
  });

  it.each([
    ['userId', ERASE_SQL.userId, 'activity_log_records_user'],
    ['attemptedEmail', ERASE_SQL.attemptedEmail, 'activity_log_records_attempted'],
  ])('eraseFlows by %s searches its index', (_name, text, index) => {
    const plan = planOf({ text, params: ['t', 'x'] });
    assert.ok(
      plan.some((d) => d.includes(`INDEX ${index} (tenant_id=? AND`)),
      plan.join('; '),
    );
  });

  it.each([{}, { userId: 'u' }, { userAlias: 'a' }, { userId: 'u', userAlias: 'a' }])(
    'query(%o)',
    (members) => {
      const q = { tenantId: 't', appId: 'a', timeStart: 0, timeEnd: 10, skip: 0, pageSize: 50, ...members };
      assertIndexed(JSON.stringify(members), planOf(specQuerySql(q)), specQueryShape(members).equality);
    },
  );
});
