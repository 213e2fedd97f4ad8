import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from '@jest/globals';
import { EmbeddedStore } from '../embedded-store';

export interface TempEngines {
  /** A fresh temporary directory (removed after the test file). */
  dir(): string;
  /** Opens the engine in `at` (a fresh directory when omitted), or opens it again there, as a restart does. */
  open(at?: string): EmbeddedStore;
}

/**
 * Embedded engines in temporary directories for one test file (`sesame-<prefix>-…` under the OS temp dir).
 * Registers an afterAll that closes every engine still open and removes every directory, so call it at the top
 * level of the file or inside a describe block.
 */
export function tempEngines(prefix: string): TempEngines {
  const dirs: string[] = [];
  const engines: EmbeddedStore[] = [];
  afterAll(() => {
    for (const engine of engines.splice(0)) engine.close();
    for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
  });
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), `sesame-${prefix}-`));
    dirs.push(made);
    return made;
  };
  return {
    dir,
    open(at = dir()) {
      const engine = EmbeddedStore.open({ dir: at });
      engines.push(engine);
      return engine;
    },
  };
}

/** What SQLite's planner does for `sql`: the lines of EXPLAIN QUERY PLAN (parameters bound to null). */
export function queryPlan(engine: EmbeddedStore, sql: string): string[] {
  const stmt = engine.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null);
  return Array.from(stmt.all(...params) as { detail: string }[], (row) => row.detail);
}
