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
  return () =>
    `${(sequence++).toString(36).padStart(SEQUENCE_WIDTH, '0')}-${randomBytes(12).toString('base64url')}`;
}

/** 36^11 ids per process before the width grows (and string order with it would break): never in practice. */
const SEQUENCE_WIDTH = 11;
