import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';

/**
 * Embedded engines in temp directories for one test file: `open()` a fresh one (or `open(dir)` the one in a
 * directory again, as a restart does); every engine is closed and every directory removed after the file.
 */
export function tempEngines(): { dir: () => string; open: (dir?: string) => EmbeddedStore } {
  const dirs: string[] = [];
  const engines: EmbeddedStore[] = [];
  afterAll(() => {
    for (const engine of engines) engine.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const dir = () => {
    const made = mkdtempSync(join(tmpdir(), 'sesame-activity-'));
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
