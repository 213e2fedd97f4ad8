import type { EmbeddedStore } from '@sesame/embedded-store';

type Db = EmbeddedStore['db'];
/** A column's value: what a query filters or sorts on, copied out of the document. */
export type Cell = string | number | null;
const prepare = (db: Db, text: string) => db.prepare<Cell[]>(text);
type Statement = ReturnType<typeof prepare>;

/**
 * The rows of one table of mgmt's SQLite repositories (the embedded default's engine): each row is the record
 * as a JSON document (`doc`; absent fields stay absent) plus the columns its queries filter or sort on, which
 * `columns` derives from the record on every write so they never drift from the document. Statements are
 * prepared once per SQL text; every write runs inside the caller's transaction or as one statement, so it has
 * reached the write-ahead log before the repository's promise resolves.
 */
export class SqliteDocs<T extends object> {
  private readonly statements = new Map<string, Statement>();
  private readonly names: string[];

  constructor(
    private readonly db: Db,
    private readonly table: string,
    private readonly columns: (doc: T) => Record<string, Cell>,
    /** The order of `all`: oldest first by default, ties in the order they were written. */
    private readonly order = 'created_at, rowid',
  ) {
    this.names = Object.keys(columns({} as T));
  }

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = prepare(this.db, text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private values(doc: T): Cell[] {
    const cells = this.columns(doc);
    return [...this.names.map((name) => cells[name] ?? null), JSON.stringify(doc)];
  }

  /** Runs `fn` as one transaction (nested calls join the outer one). */
  atomic<R>(fn: () => R): R {
    return this.db.transaction(fn)();
  }

  insert(doc: T): void {
    const holes = [...this.names, 'doc'].map(() => '?').join(', ');
    this.sql(`INSERT INTO ${this.table} (${[...this.names, 'doc'].join(', ')}) VALUES (${holes})`).run(
      ...this.values(doc),
    );
  }

  /** Writes `doc` over the row(s) `where` selects; how many rows it changed. */
  replace(doc: T, where: string, ...params: Cell[]): number {
    const sets = [...this.names, 'doc'].map((name) => `${name} = ?`).join(', ');
    return this.sql(`UPDATE ${this.table} SET ${sets} WHERE ${where}`).run(...this.values(doc), ...params)
      .changes;
  }

  /** Inserts `doc`, or replaces the row with the same primary key. */
  upsert(doc: T): void {
    const cols = [...this.names, 'doc'];
    this.sql(
      `INSERT OR REPLACE INTO ${this.table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    ).run(...this.values(doc));
  }

  one(where: string, ...params: Cell[]): T | undefined {
    const text = this.sql(`SELECT doc FROM ${this.table} WHERE ${where} LIMIT 1`)
      .pluck()
      .get(...params);
    return typeof text === 'string' ? (JSON.parse(text) as T) : undefined;
  }

  /** The documents `where` selects, in the table's order. */
  all(where: string, ...params: Cell[]): T[] {
    const texts = this.sql(`SELECT doc FROM ${this.table} WHERE ${where} ORDER BY ${this.order}`)
      .pluck()
      .all(...params) as string[];
    // Array.from: an array of this realm, not the driver's (Jest runs tests in another realm).
    return Array.from(texts, (text) => JSON.parse(text) as T);
  }

  count(where: string, ...params: Cell[]): number {
    return this.sql(`SELECT count(*) FROM ${this.table} WHERE ${where}`)
      .pluck()
      .get(...params) as number;
  }

  exists(where: string, ...params: Cell[]): boolean {
    return (
      this.sql(`SELECT 1 FROM ${this.table} WHERE ${where} LIMIT 1`)
        .pluck()
        .get(...params) !== undefined
    );
  }

  delete(where: string, ...params: Cell[]): number {
    return this.sql(`DELETE FROM ${this.table} WHERE ${where}`).run(...params).changes;
  }
}
