import { readFileSync, readdirSync } from 'node:fs';

/**
 * Auth's non-TypeScript files (the pages' templates and assets), read once at startup by their path under src/.
 * From sources (tsx, Jest) this module's URL is in src/; in the bundle every module's import.meta.url is
 * main.mjs, and scripts/build.mjs copies these files beside it with the same paths. (esbuild's text loader
 * would inline them, but tsx and Jest would each need their own .hbs hook.)
 */
export function readSourceFile(path: string): Buffer {
  return readFileSync(new URL(`./${path}`, import.meta.url));
}

/** The files under a folder of src/, as paths relative to it, sorted. */
export function listSourceFiles(dir: string): string[] {
  return readdirSync(new URL(`./${dir}/`, import.meta.url), { recursive: true, encoding: 'utf8' })
    .map((name) => name.split('\\').join('/'))
    .sort();
}
