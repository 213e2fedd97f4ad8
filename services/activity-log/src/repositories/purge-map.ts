/**
 * Deletes the entries of an in-memory store whose retention ran out (their time plus `retentionMs` is before
 * `now`), as Mongo's TTL index (or its purge) does; returns how many.
 */
export function purgeExpiredEntries<V>(
  entries: Map<string, V>,
  timeOf: (value: V) => number,
  retentionMs: number,
  now: number,
): number {
  let deleted = 0;
  for (const [key, value] of entries) {
    if (timeOf(value) + retentionMs < now) {
      entries.delete(key);
      deleted++;
    }
  }
  return deleted;
}
