import { type KeySlot, type KeyTimings, type KeyUse, type StoredKey, algorithmOf, keySlots } from './key';
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
 *
 * Each slot (use, alg: sig RS256, sig PS256, sig ES256, enc RSA-OAEP-256) runs this machine on its own. The
 * generation counter is per use, shared by the sig slots, so a plan creates at most one key per use: two pods
 * that both create "the next sig key" then always pick the same generation and the store's guard lets one win
 * (the other slots get theirs in the next round).
 */
export interface KeyRingPlan {
  generate: Array<{ use: KeyUse; alg: string; generation: number; status: 'active' | 'pending' }>;
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

const inSlot = (k: StoredKey, slot: KeySlot) => k.use === slot.use && k.alg === slot.alg;

/**
 * The key of this slot that signs / that RPs should encrypt to: the most recently activated one. The alg
 * defaults to the use's (RS256 for sig, the spec's key).
 */
export function currentKey(
  keys: StoredKey[],
  use: KeyUse,
  alg: string = algorithmOf[use],
): StoredKey | undefined {
  return keys.filter((k) => inSlot(k, { use, alg }) && k.status === 'active').sort(byActivation)[0];
}

/**
 * What /jwks publishes, per slot (sig RS256, PS256, ES256, then enc): the current key, then the others
 * newest first.
 */
export function publishedKeys(keys: StoredKey[], now: number): StoredKey[] {
  return keySlots.flatMap((slot) => {
    const current = currentKey(keys, slot.use, slot.alg);
    const others = keys
      .filter((k) => inSlot(k, slot) && k !== current && isPublished(k, now))
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
  const generating = new Set<KeyUse>();
  const generate = (use: KeyUse, alg: string, status: 'active' | 'pending') => {
    if (generating.has(use)) return;
    generating.add(use);
    plan.generate.push({ use, alg, generation: nextGeneration(keys, use), status });
  };
  for (const { use, alg } of keySlots) {
    const mine = keys.filter((k) => inSlot(k, { use, alg }));
    const active = mine.filter((k) => k.status === 'active').sort(byActivation);
    const pending = mine.filter((k) => k.status === 'pending');
    if (active.length === 0 && pending.length === 0) {
      // First start (or every key gone): nothing was ever signed with a missing key, so no overlap to wait for.
      generate(use, alg, 'active');
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
      generate(use, alg, 'pending');
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
