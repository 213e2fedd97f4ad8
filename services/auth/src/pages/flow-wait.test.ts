import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { describe, it } from '@jest/globals';
import { readPageFile } from './files';

const source = readPageFile('assets/flow-wait.js').toString();

/**
 * Runs flow-wait.js against a fake page and clock; `answers` are what the status URL answers in turn (a state,
 * or 'error' for a failed request). The script asks once at load.
 */
function page(answers: string[], { now = 0, expiresAt = 60_000, hold = false } = {}) {
  const clock = { now };
  const timers: { at: number; run: () => void }[] = [];
  const element = (when: string) => ({ dataset: { when }, hidden: when !== 'waiting' });
  const parts = [element('waiting'), element('expired')];
  const polled: string[] = [];
  const navigated: string[] = [];
  const listeners: Record<string, () => void> = {};
  const doc = {
    querySelector: () => box,
    addEventListener: (name: string, run: () => void) => {
      listeners[name] = run;
    },
    visibilityState: 'visible',
  };
  const box = {
    dataset: { statusUrl: '/f/status', continueUrl: '/f/continue', expiresAt: String(expiresAt) },
    querySelectorAll: () => parts,
  };
  let release: (() => void) | undefined;
  const held = { on: hold };
  runInNewContext(source, {
    document: doc,
    location: { assign: (url: string) => navigated.push(url) },
    Date: { now: () => clock.now },
    setTimeout: (run: () => void, ms: number) => timers.push({ at: clock.now + ms, run }),
    clearTimeout: () => {},
    fetch: async (url: string) => {
      polled.push(url);
      if (held.on)
        await new Promise<void>((r) => {
          release = r;
        });
      const answer = answers.shift() ?? 'pending';
      if (answer === 'error') throw new Error('offline');
      return { ok: true, json: async () => ({ state: answer }) };
    },
  });
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  /** Fires the next timer, then lets the fetch promises settle. */
  const tick = async () => {
    const next = timers.shift();
    if (!next) return false;
    clock.now = next.at;
    next.run();
    await settle();
    return true;
  };
  const expiredShown = () => !parts[1]!.hidden && parts[0]!.hidden;
  return {
    tick,
    settle,
    polled,
    navigated,
    expiredShown,
    timers,
    clock,
    listeners,
    held,
    release: () => release?.(),
  };
}

describe('flow-wait.js', () => {
  it('asks the status URL at once, asking the server to wait for a change (long polling)', async () => {
    const p = page([]);
    await p.settle();
    assert.deepEqual(p.polled, ['/f/status?wait=25']);
  });

  it('goes to the continue URL when the state is ready', async () => {
    const p = page(['pending', 'ready']);
    await p.settle();
    await p.tick();
    assert.deepEqual(p.navigated, ['/f/continue']);
    assert.equal(p.timers.length, 0);
  });

  it('asks again right away (250 ms) after a pending answer, and backs off only after errors', async () => {
    const p = page(['pending', 'error', 'error', 'error', 'pending']);
    await p.settle();
    const gaps: number[] = [];
    for (let i = 0; i < 5; i++) {
      const before = p.clock.now;
      await p.tick();
      gaps.push(p.clock.now - before);
    }
    assert.deepEqual(gaps, [250, 3000, 4500, 6750, 250]);
  });

  it('shows the expired message and stops when the state is expired', async () => {
    const p = page(['expired']);
    await p.settle();
    assert.ok(p.expiredShown());
    assert.equal(p.timers.length, 0);
  });

  it('stops asking once the flow has expired and shows the expired message', async () => {
    const p = page(['error', 'error', 'error', 'error'], { expiresAt: 5000 });
    await p.settle();
    while (await p.tick()) {}
    assert.equal(p.polled.length, 2, 'at 0 s and 3 s; the next try would be after the flow expired');
    assert.ok(p.expiredShown());
  });

  it('coming back to the tab does not start a second request while one is waiting', async () => {
    const p = page(['ready'], { hold: true });
    await p.settle();
    p.listeners.visibilitychange!();
    await p.settle();
    assert.equal(p.polled.length, 1);
    p.release();
    await p.settle();
    assert.deepEqual(p.navigated, ['/f/continue']);
  });
});
