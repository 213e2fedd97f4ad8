import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { flowOf } from './support-data';
import { MemorySupport } from './support-memory';

const ids = (flows: { id: string }[]) => flows.map((f) => f.id);

describe('the in-memory support port honours the port’s contract', () => {
  it('newest first in (timestamp, id) order; a cursor is a position, stable while records arrive', async () => {
    const m = new MemorySupport();
    for (const id of ['a', 'b', 'c', 'd']) m.addFlow(flowOf('t1', id, 1000, ['auth_start_oidc']));
    m.addFlow(flowOf('t1', 'old', 500, ['auth_start_oidc']));
    const first = await m.listFlows('t1', {}, 2);
    assert.deepEqual(ids(first.flows), ['d', 'c']);
    m.addFlow(flowOf('t1', 'new', 2000, ['auth_start_oidc']));
    const second = await m.listFlows('t1', {}, 2, first.nextCursor);
    assert.deepEqual(ids(second.flows), ['b', 'a']);
    const last = await m.listFlows('t1', {}, 2, second.nextCursor);
    assert.deepEqual(ids(last.flows), ['old']);
    assert.equal(last.nextCursor, undefined);
  });

  it('tenant isolation and filters', async () => {
    const m = new MemorySupport();
    m.addFlow(flowOf('t1', 'mine', 1000, [], { status: 'failure', userId: 'u1' }));
    m.addFlow(flowOf('t2', 'theirs', 1000, [], { status: 'failure', userId: 'u1' }));
    m.addFlow(flowOf('t1', 'ok', 2000, [], { status: 'success', userId: 'u1' }));
    assert.deepEqual(ids((await m.listFlows('t1', { status: 'failure' }, 10)).flows), ['mine']);
    assert.deepEqual(ids((await m.listFlows('t1', { from: 1500 }, 10)).flows), ['ok']);
    assert.deepEqual(ids((await m.listFlows('t1', { to: 1500 }, 10)).flows), ['mine']);
    assert.equal(await m.getFlow('t1', 'theirs'), undefined);
    m.addPerson({ tenantId: 't2', userId: 'u9', email: 'x@y.z', devices: [], memberships: [] });
    assert.deepEqual(await m.findUsers('t1', 'X@Y.Z'), []);
    assert.equal(await m.userDetail('t1', 'u9'), undefined);
    assert.deepEqual(await m.findUsers('t2', 'X@Y.Z'), [
      { userId: 'u9', email: 'x@y.z', matchedBy: 'email' },
    ]);
  });

  it('an export while records arrive yields every matching record once, none skipped', async () => {
    const m = new MemorySupport();
    for (let i = 0; i < 450; i++)
      m.addFlow(flowOf('t1', `f${String(i).padStart(3, '0')}`, 1000 + (i % 7), []));
    const seen: string[] = [];
    for await (const batch of m.exportFlows('t1', {})) {
      for (const f of batch) {
        seen.push(f.id);
        if (seen.length % 100 === 0) m.addFlow(flowOf('t1', `late-${seen.length}`, 5000, []));
      }
    }
    assert.equal(seen.length, 450);
    assert.equal(new Set(seen).size, 450);
    assert.ok(seen.every((id) => id.startsWith('f')));
  });
});
