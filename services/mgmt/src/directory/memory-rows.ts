import { DuplicateKeyError } from './directory.repository';

export const copy = <T>(v: T): T => structuredClone(v);

/**
 * The rows of an in-memory repository, by key. Reads hand out copies, so a caller's edits never reach the
 * store; `live` is the stored row itself, for the repository's own updates.
 */
export class MemoryRows<T extends { createdAt: number }> {
  private readonly rows = new Map<string, T>();

  /** Stores a copy of `row` under `key`; DuplicateKeyError naming `field` when the key is taken. */
  insert(key: string, row: T, field: string): void {
    if (this.rows.has(key)) throw new DuplicateKeyError(field);
    this.rows.set(key, copy(row));
  }
  put(key: string, row: T): void {
    this.rows.set(key, row);
  }
  live(key: string): T | undefined {
    return this.rows.get(key);
  }
  delete(key: string): boolean {
    return this.rows.delete(key);
  }
  values(): T[] {
    return [...this.rows.values()];
  }
  /** A copy of the row under `key`. */
  get(key: string): T | undefined {
    const row = this.rows.get(key);
    return row && copy(row);
  }
  /** Copies of the rows that match, oldest first. */
  list(match: (row: T) => boolean = () => true): T[] {
    return this.values()
      .filter(match)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(copy);
  }
  /** A copy of the first row that matches. */
  find(match: (row: T) => boolean): T | undefined {
    const row = this.values().find(match);
    return row && copy(row);
  }
}
