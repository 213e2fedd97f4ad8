import { type KeyTimings, type KeyUse, type StoredKey, keyUses } from './key';
import { nextGeneration } from './key.repository';

/**
 * The rotation state machine as a pure function of the stored keys and the time, so every jwks pod that
 * reads the same keys at the same time decides the same thing (and the repository's guards make the
 * duplicates no-ops):
 *
 *   (no key)  ──bootstrap──▶ active
 *   pending   ──createdAt + publishDelay──▶ active      (published first, signs only after the delay)
 *   active    ──a newer key is active──▶ retired        (retireAfter = now + max token lifetime + margin)
 *   retired   ──retireAfter──▶ deleted                  (stays in /jwks until then)
 *   newest key older than the rotation interval ──▶ a new pending key
 */
export interface KeyRingPlan {
  generate: Array<{ use: KeyUse; generation: number; status: 'active' | 'pending' }>;
  activate: string[];
  retire: Array<{ kid: string; retireAfter: number }>;
  deleteExpired: boolean;
  /** Earliest future time at which the plan changes (drives the next reconcile). */
  nextDueAt: number | undefined;
}

export const isPublished = (key: StoredKey, now: number) =>
  key.status !== 'retired' || (key.retireAfter !== undefined && key.retireAfter > now);

/** Newest first: activatedAt, then generation. */
const byActivation = (a: StoredKey, b: StoredKey) =>
  (b.activatedAt ?? 0) - (a.activatedAt ?? 0) || b.generation - a.generation;

/** The key of this use that signs / that RPs should encrypt to: the most recently activated one. */
export function currentKey(keys: StoredKey[], use: KeyUse): StoredKey | undefined {
  return keys.filter((k) => k.use === use && k.status === 'active').sort(byActivation)[0];
}

/** What /jwks publishes, per use (sig first): the current key, then the others newest first. */
export function publishedKeys(keys: StoredKey[], now: number): StoredKey[] {
  return keyUses.flatMap((use) => {
    const current = currentKey(keys, use);
    const others = keys
      .filter((k) => k.use === use && k !== current && isPublished(k, now))
      .sort((a, b) => b.generation - a.generation);
    return current ? [current, ...others] : others;
  });
}

export function planKeyRing(keys: StoredKey[], now: number, timings: KeyTimings): KeyRingPlan {
  const plan: KeyRingPlan = {
    generate: [],
    activate: [],
    retire: [],
    deleteExpired: false,
    nextDueAt: undefined,
  };
  const due = (at: number) => {
    if (at > now && (plan.nextDueAt === undefined || at < plan.nextDueAt)) plan.nextDueAt = at;
    return at <= now;
  };
  for (const use of keyUses) {
    const mine = keys.filter((k) => k.use === use);
    const active = mine.filter((k) => k.status === 'active').sort(byActivation);
    const pending = mine.filter((k) => k.status === 'pending');
    if (active.length === 0 && pending.length === 0) {
      // First start (or every key gone): nothing was ever signed with a missing key, so no overlap to wait for.
      plan.generate.push({ use, generation: nextGeneration(keys, use), status: 'active' });
      continue;
    }
    for (const key of pending) {
      // Without any active key, waiting would leave the token service unable to sign.
      if (active.length === 0 || due(key.createdAt + timings.publishDelayMs)) plan.activate.push(key.kid);
    }
    for (const key of active.slice(1))
      plan.retire.push({ kid: key.kid, retireAfter: now + timings.retireAfterMs });
    const newest = mine.reduce((a, b) => (b.generation > a.generation ? b : a));
    if (
      timings.rotationIntervalMs > 0 &&
      pending.length === 0 &&
      due(newest.createdAt + timings.rotationIntervalMs)
    ) {
      plan.generate.push({ use, generation: newest.generation + 1, status: 'pending' });
    }
    for (const key of mine) {
      if (key.status === 'retired' && key.retireAfter !== undefined && due(key.retireAfter))
        plan.deleteExpired = true;
    }
  }
  return plan;
}

export const isEmptyPlan = (plan: KeyRingPlan) =>
  plan.generate.length === 0 && plan.activate.length === 0 && plan.retire.length === 0 && !plan.deleteExpired;
