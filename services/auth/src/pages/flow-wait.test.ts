import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { describe, it } from '@jest/globals';
import { readPageFile } from './files';

const source = readPageFile('assets/flow-wait.js').toString();

/** Runs flow-wait.js against a fake page and clock; `states` are what the status URL answers in turn. */
function page(states: string[], { now = 0, expiresAt = 60_000 } = {}) {
  const clock = { now };
  const timers: { at: number; run: () => void }[] = [];
  const element = (when: string) => ({ dataset: { when }, hidden: when !== 'waiting' });
  const parts = [element('waiting'), element('expired')];
  const polled: string[] = [];
  const navigated: string[] = [];
  const box = {
    dataset: { statusUrl: '/f/status', continueUrl: '/f/continue', expiresAt: String(expiresAt) },
    querySelectorAll: () => parts,
  };
  runInNewContext(source, {
    document: { querySelector: () => box, addEventListener: () => {}, visibilityState: 'visible' },
    location: { assign: (url: string) => navigated.push(url) },
    Date: { now: () => clock.now },
    setTimeout: (run: () => void, ms: number) => timers.push({ at: clock.now + ms, run }),
    clearTimeout: () => {},
    fetch: async (url: string) => {
      polled.push(url);
      const state = states.shift() ?? 'pending';
      return { ok: true, json: async () => ({ state }) };
    },
  });
  /** Fires the next timer, then lets the fetch promises settle. */
  const tick = async () => {
    const next = timers.shift();
    if (!next) return false;
    clock.now = next.at;
    next.run();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    return true;
  };
  const expiredShown = () => !parts[1]!.hidden && parts[0]!.hidden;
  return { tick, polled, navigated, expiredShown, timers, clock };
}

describe('flow-wait.js', () => {
  it('polls the status URL first after 2 seconds', async () => {
    const p = page([]);
    assert.equal(p.timers[0]?.at, 2000);
    await p.tick();
    assert.deepEqual(p.polled, ['/f/status']);
  });

  it('goes to the continue URL when the state is ready', async () => {
    const p = page(['pending', 'ready']);
    await p.tick();
    await p.tick();
    assert.deepEqual(p.navigated, ['/f/continue']);
    assert.equal(p.timers.length, 0);
  });

  it('shows the expired message and stops when the state is expired', async () => {
    const p = page(['expired']);
    await p.tick();
    assert.ok(p.expiredShown());
    assert.equal(p.timers.length, 0);
  });

  it('backs off between polls', async () => {
    const p = page([]);
    const gaps: number[] = [];
    for (let i = 0; i < 5; i++) {
      const before = p.clock.now;
      await p.tick();
      gaps.push(p.clock.now - before);
    }
    assert.ok(
      gaps.every((gap, i) => i === 0 || gap > gaps[i - 1]!),
      gaps.join(),
    );
  });

  it('stops polling once the flow has expired and shows the expired message', async () => {
    const p = page([], { expiresAt: 5000 });
    while (await p.tick()) {}
    assert.ok(p.polled.length <= 2, `${p.polled.length} polls`);
    assert.ok(p.expiredShown());
  });
});
