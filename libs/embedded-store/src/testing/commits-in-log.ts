import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How many transactions the write-ahead log of the store in `dir` holds since its last checkpoint: a frame
 * header's bytes 4–7 (the database size after the commit) are non-zero only in a transaction's last frame.
 */
export function commitsInLog(dir: string): number {
  const wal = readFileSync(join(dir, 'sesame.db-wal'));
  const pageSize = wal.readUInt32BE(8);
  let commits = 0;
  for (let at = 32; at + 24 <= wal.length; at += 24 + pageSize) if (wal.readUInt32BE(at + 4) !== 0) commits++;
  return commits;
}
