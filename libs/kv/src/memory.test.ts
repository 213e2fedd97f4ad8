import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { keyValueStoreContract } from './contract';
import { MemoryKeyValueStore } from './memory';
import { pendingEntriesContract } from './pending-contract';
import type { SlidingWindow } from './port';

keyValueStoreContract('memory', () => new MemoryKeyValueStore());

pendingEntriesContract('memory', () => new MemoryKeyValueStore());

/** The sliding window as a list filtered at every call: what the memory store must answer, however it keeps it. */
class ReferenceWindows {
  private readonly times = new Map<string, number[]>();
  private live(w: SlidingWindow, now: number) {
    return (this.times.get(w.key) ?? []).filter((t) => t > now - w.windowMs).sort((a, b) => a - b);
  }
  admit(windows: SlidingWindow[], now: number) {
    const live = windows.map((w) => this.live(w, now));
    const blocked = windows.findIndex((w, i) => live[i]!.length >= w.limit);
    if (blocked >= 0) {
      const w = windows[blocked]!;
      const oldest = live[blocked]![live[blocked]!.length - w.limit]!;
      return { admitted: false, blocked, retryAfterMs: Math.max(1, oldest + w.windowMs - now) };
    }
    windows.forEach((w, i) => this.times.set(w.key, [...live[i]!, now]));
    return { admitted: true };
  }
  waitMs(windows: SlidingWindow[], now: number) {
    let wait = 0;
    for (const w of windows) {
      const live = this.live(w, now);
      if (live.length >= w.limit) wait = Math.max(wait, live[live.length - w.limit]! + w.windowMs - now);
    }
    return wait;
  }
}

describe('MemoryKeyValueStore sliding windows', () => {
  it('a large window (a NAT allowance) answers exactly as the list filtered at every call does', async () => {
    const store = new MemoryKeyValueStore(() => 0);
    const reference = new ReferenceWindows();
    const perIp: SlidingWindow = { key: 'mail:ip:10.0.0.1', limit: 3_000, windowMs: 600_000 };
    const perAddress: SlidingWindow = { key: 'mail:to:a@example.com', limit: 40, windowMs: 60_000 };
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let now = 1_700_000_000_000;
    let refused = 0;
    for (let call = 0; call < 20_000; call++) {
      // Forward in small steps, bursts and pauses (the same millisecond too).
      now += Math.floor(random() * (random() < 0.1 ? 5_000 : 200));
      random() < 0.02 ? -Math.floor(random() * 2_000) : Math.floor(random() * (random() < 0.1 ? 5_000 : 200));
      const windows = random() < 0.5 ? [perIp] : [perAddress, perIp];
      if (random() < 0.2) {
        assert.equal(
          await store.admissionWaitMs(windows, now),
          reference.waitMs(windows, now),
          `wait at ${call}`,
        );
        continue;
      }
      const answer = await store.admit(windows, now);
      assert.deepEqual(answer, reference.admit(windows, now), `admit at ${call}`);
      if (!answer.admitted) refused++;
    }
    // Both windows filled and emptied along the way: the comparison covered refusals as well as admissions.
    assert.ok(refused > 100, `${refused} refused`);
  });

  it('a time earlier than the last (the clock stepped back) is kept in order and counts while in the window', async () => {
    const store = new MemoryKeyValueStore(() => 0);
    const w: SlidingWindow = { key: 'k', limit: 3, windowMs: 1_000 };
    assert.deepEqual(await store.admit([w], 10_000), { admitted: true });
    assert.deepEqual(await store.admit([w], 10_500), { admitted: true });
    assert.deepEqual(await store.admit([w], 9_800), { admitted: true });
    // Full: the oldest of the last three is 9,800, which leaves the window at 10,800.
    assert.deepEqual(await store.admit([w], 9_900), { admitted: false, blocked: 0, retryAfterMs: 900 });
    assert.equal(await store.admissionWaitMs([w], 9_900), 900);
    assert.deepEqual(await store.admit([w], 10_850), { admitted: true });
    assert.deepEqual(await store.admit([w], 10_900), { admitted: false, blocked: 0, retryAfterMs: 100 });
  });
});
