import type { EmbeddedStore } from '@sesame/embedded-store';

/** Rows deleted per transaction by a purge: each batch is short, so sign-ins are not held up behind it. */
export const PURGE_BATCH = 1000;

/**
 * Deletes the rows of `table` whose `column` is before `before`, `batch` rows per transaction with a turn of
 * the event loop between batches (retention as Mongo's TTL index keeps it, without one long write); returns
 * how many. The column is indexed, so each batch finds its rows without a scan.
 */
export async function purgeInBatches(
  store: EmbeddedStore,
  table: string,
  column: string,
  before: number,
  batch = PURGE_BATCH,
): Promise<number> {
  const db = store.db;
  const purge = db.prepare<[number, number]>(
    `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${column} < ? LIMIT ?)`,
  );
  let deleted = 0;
  for (;;) {
    if (!db.open) return deleted;
    const { changes } = purge.run(before, batch);
    deleted += changes;
    if (changes < batch) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
