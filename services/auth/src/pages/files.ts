import { readFileSync, readdirSync } from 'node:fs';

/**
 * Templates and assets are plain files read once at startup, relative to this module: from sources
 * (tsx, Jest) that is this folder; in the bundle every module's import.meta.url is main.mjs, and
 * scripts/build.mjs copies this folder's non-TypeScript files beside it with the same relative paths.
 * (esbuild's text loader would inline them, but tsx and Jest would each need their own .hbs hook.)
 */
export function readPageFile(relativePath: string): Buffer {
  return readFileSync(new URL(`./${relativePath}`, import.meta.url));
}

export function listPageFiles(relativeDir: string): string[] {
  return readdirSync(new URL(`./${relativeDir}/`, import.meta.url), { recursive: true, encoding: 'utf8' })
    .map((name) => name.split('\\').join('/'))
    .sort();
}
