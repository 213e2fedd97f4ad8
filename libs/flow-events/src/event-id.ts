import { randomBytes } from 'node:crypto';

/**
 * Event ids that sort, as strings, in the order this process made them: a fixed-width base-36 sequence number,
 * then 96 random bits so ids of different processes never collide.
 *
 * The activity log orders a flow's events by (timestamp, event id). Steps of one request recorded in the same
 * millisecond by separate `record` calls (a new user created, then the email verified) used to tie on the
 * timestamp and fall back to the order of random UUIDs, so support staff saw them swapped about half the time.
 * With these ids the tie falls to the order they were recorded in.
 */
export function orderedEventIds(): () => string {
  let sequence = 0;
  // The random parts of the next POOL ids, drawn from the CSPRNG at once (one call instead of one per event,
  // as node's randomUUID keeps a cache); each id uses its 12 bytes once.
  let pool = Buffer.alloc(0);
  let used = 0;
  return () => {
    if (used === pool.length) {
      pool = randomBytes(RANDOM_BYTES * POOL);
      used = 0;
    }
    const random = pool.toString('base64url', used, used + RANDOM_BYTES);
    used += RANDOM_BYTES;
    return `${(sequence++).toString(36).padStart(SEQUENCE_WIDTH, '0')}-${random}`;
  };
}

const RANDOM_BYTES = 12;
const POOL = 128;

/** 36^11 ids per process before the width grows (and string order with it would break): never in practice. */
const SEQUENCE_WIDTH = 11;
