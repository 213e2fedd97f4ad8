import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { breakGlassActive, breakGlassProductionProblem, parseBreakGlass } from './break-glass';

const now = Date.UTC(2026, 0, 1, 12);

describe('the break-glass setting', () => {
  it('parses off (default), on and on-until:<time>, and names what is wrong otherwise', () => {
    assert.deepEqual(parseBreakGlass(undefined), { kind: 'off' });
    assert.deepEqual(parseBreakGlass('off'), { kind: 'off' });
    assert.deepEqual(parseBreakGlass('on'), { kind: 'on' });
    assert.deepEqual(parseBreakGlass('on-until:2026-01-01T13:00:00Z'), {
      kind: 'until',
      untilMs: Date.UTC(2026, 0, 1, 13),
    });
    assert.equal(typeof parseBreakGlass('yes'), 'string');
    assert.equal(typeof parseBreakGlass('on-until:tomorrow'), 'string');
  });

  it('production refuses `on` and an on-until that is past or more than 24 hours away', () => {
    assert.match(breakGlassProductionProblem({ kind: 'on' }, now) ?? '', /refused in production/);
    assert.ok(breakGlassProductionProblem({ kind: 'until', untilMs: now - 1 }, now));
    assert.ok(breakGlassProductionProblem({ kind: 'until', untilMs: now + 25 * 3600_000 }, now));
    assert.equal(breakGlassProductionProblem({ kind: 'until', untilMs: now + 3600_000 }, now), undefined);
    assert.equal(breakGlassProductionProblem({ kind: 'off' }, now), undefined);
  });

  it('on-until ends at its time', () => {
    const setting = { kind: 'until', untilMs: now } as const;
    assert.equal(breakGlassActive(setting, now - 1), true);
    assert.equal(breakGlassActive(setting, now), false);
    assert.equal(breakGlassActive({ kind: 'off' }, now), false);
    assert.equal(breakGlassActive({ kind: 'on' }, now), true);
  });
});
