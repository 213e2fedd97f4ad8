import { randomBytes } from 'node:crypto';

/**
 * A new flow's id: a UUID of version 7 (RFC 9562, 5.7), its creation time in Unix milliseconds (48 bits), then
 * 74 random bits.
 *
 * A flow id is not a secret (the session binding guards a flow: auth's flow/flow-guard.ts), but it keys the
 * activity log's record of every flow (a unique index in the embedded engine and in MongoDB). Version 4 ids
 * landed each new record on a random page of that index: on the embedded engine a sign-in start wrote about one
 * more 4 KiB page to the log than it needed (docs/performance.md), and a large index is read back from disk at
 * random. Ids that start with their time go where the newest ones are.
 *
 * The random bits are drawn POOL ids at a time (as node's randomUUID caches), each id using its 10 bytes once.
 * Unlike the `uuid` package's v7, no bits are spent on a counter: flows made in the same millisecond need no
 * order among themselves, so all 74 stay random.
 */
export function flowIds(): (now?: number) => string {
  let pool = Buffer.alloc(0);
  let used = 0;
  const id = Buffer.alloc(16);
  return (now = Date.now()) => {
    if (used === pool.length) {
      pool = randomBytes(RANDOM_BYTES * POOL);
      used = 0;
    }
    id.writeUIntBE(Math.max(0, Math.min(MAX_MS, Math.floor(now))), 0, 6);
    pool.copy(id, 6, used, used + RANDOM_BYTES);
    used += RANDOM_BYTES;
    id[6] = 0x70 | (id[6]! & 0x0f); // version 7 over the first 4 bits of rand_a
    id[8] = 0x80 | (id[8]! & 0x3f); // variant 10 over the first 2 bits of rand_b
    const hex = id.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** This process's generator (flow ids from every journey). */
export const newFlowId = flowIds();

const RANDOM_BYTES = 10;
const POOL = 128;
/** 48 bits of milliseconds: until the year 10889. */
const MAX_MS = 2 ** 48 - 1;
