/**
 * Entries in the order they were last touched, the least recently touched first, for bounded in-memory tables
 * that drop the quietest entry at their limit (the sign-in funnel's open flows). Every call is constant time.
 * The list is intrusive: an entry carries its own two links (`older`, `newer`), so keeping the order costs two
 * fields per entry and no object of its own. An entry is in at most one list.
 *
 * Why not the order of the Map that holds the entries (delete and set again to move a key to the end, then
 * `keys().next()` for the oldest): V8 leaves a hole for every deleted entry until the table is rebuilt, and a
 * new iterator walks every hole at the front before it finds a live entry. At 100,000 entries with a move per
 * event that walk cost about 20 µs per eviction. A long-lived iterator would skip them once, but it keeps every
 * table V8 rebuilt since its last step alive (hundreds of MB under moves without evictions).
 *
 * Why not an array of keys in touch order beside the Map, stale entries skipped at its head (tried first): as
 * fast, but it held an entry per touch until its next compaction, each with the touching event's own copy of
 * the key; a flood of 1,000,000 sign-in starts peaked at 619 MB RSS with it, against 575 MB before.
 */
export interface RecencyLinks<T> {
  older: T | undefined;
  newer: T | undefined;
}

export class RecencyList<T extends RecencyLinks<T>> {
  private first: T | undefined;
  private last: T | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Whether `entry` is in this list. */
  has(entry: T): boolean {
    return entry === this.first || entry.older !== undefined;
  }

  /** Makes `entry` the most recently touched one, adding it when it is not in the list. */
  touch(entry: T): void {
    if (entry === this.last) return;
    if (this.has(entry)) this.unlink(entry);
    else this.count++;
    entry.older = this.last;
    entry.newer = undefined;
    if (this.last) this.last.newer = entry;
    else this.first = entry;
    this.last = entry;
  }

  /** Takes `entry` out of the list; false when it was not in it. */
  remove(entry: T): boolean {
    if (!this.has(entry)) return false;
    this.unlink(entry);
    this.count--;
    return true;
  }

  /** The least recently touched entry, or undefined when the list is empty; it stays in the list. */
  oldest(): T | undefined {
    return this.first;
  }

  /** Takes the least recently touched entry out of the list and returns it (undefined when empty). */
  shift(): T | undefined {
    const entry = this.first;
    if (entry) this.remove(entry);
    return entry;
  }

  /** Entries from the least to the most recently touched (it walks every entry: for tests and diagnostics). */
  *values(): IterableIterator<T> {
    for (let entry = this.first; entry; entry = entry.newer) yield entry;
  }

  private unlink(entry: T): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.first = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.last = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }
}
