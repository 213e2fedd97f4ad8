import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedStore } from '@sesame/embedded-store';

/**
 * Embedded engines in temporary directories for a test file: `dir()` makes one, `open(dir)` opens (or reopens)
 * the engine there, `cleanup()` (afterAll) closes every engine still open and removes the directories.
 */
export function tempEngines(prefix: string) {
  const dirs: string[] = [];
  const engines: EmbeddedStore[] = [];
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), `sesame-${prefix}-`));
    dirs.push(made);
    return made;
  };
  return {
    dir,
    open(at: string = dir()): EmbeddedStore {
      const engine = EmbeddedStore.open({ dir: at });
      engines.push(engine);
      return engine;
    },
    cleanup() {
      for (const engine of engines) engine.close();
      for (const made of dirs) rmSync(made, { recursive: true, force: true });
    },
  };
}

/** What SQLite's planner does for `sql`: the lines of EXPLAIN QUERY PLAN (parameters bound to null). */
export function queryPlan(engine: EmbeddedStore, sql: string): string[] {
  const stmt = engine.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null);
  return Array.from(stmt.all(...params) as { detail: string }[], (row) => row.detail);
}
