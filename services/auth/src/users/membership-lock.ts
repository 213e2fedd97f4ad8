import { randomUUID } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';
import type { AppMembership } from './model';

/** Held for one read-change-write of a membership (milliseconds); expires if its holder dies meanwhile. */
const LOCK_TTL_MS = 5_000;
/** Longer than the TTL: a lock left by a holder that died is gone before a waiter gives up. */
const LOCK_WAIT_MS = 6_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type MembershipChange = (current: AppMembership | undefined) => AppMembership;

/**
 * One membership's read-change-write under a lock in the KV store (Redis: SET NX PX), so two writers — a
 * sign-in completing while session feedback confirms the login, on any pods — never overwrite each other's
 * change. A document store alone would need an atomic compare-and-replace; MongoDB has one, but the
 * Mongo-wire server the tests run on (FerretDB) lets concurrent conditional replaces all match, so the portable
 * way is the lock.
 */
export async function lockedMembershipUpdate(
  kv: KeyValueStore,
  store: {
    get(tenantId: string, appId: string, userId: string): Promise<AppMembership | undefined>;
    save(m: AppMembership): Promise<void>;
  },
  keys: { tenantId: string; appId: string; userId: string },
  change: MembershipChange,
): Promise<AppMembership> {
  const { tenantId, appId, userId } = keys;
  const lock = `membership-lock:${JSON.stringify([tenantId, appId, userId])}`;
  const token = randomUUID();
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (!(await kv.set(lock, token, { ttlMs: LOCK_TTL_MS, onlyIfAbsent: true }))) {
    if (Date.now() > deadline) throw new Error('membership is locked by another writer for too long');
    await sleep(5 + Math.floor(Math.random() * 20));
  }
  try {
    const next = change(await store.get(tenantId, appId, userId));
    if (next.tenantId !== tenantId || next.appId !== appId || next.userId !== userId)
      throw new Error('a membership update changed its keys');
    await store.save(next);
    return next;
  } finally {
    if ((await kv.get(lock)) === token) await kv.del(lock);
  }
}
