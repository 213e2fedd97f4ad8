import { readFileSync } from 'node:fs';

let css: Buffer | undefined;

/**
 * THE base stylesheet of Sesame's pages (sesame.css beside this file): auth serves it to the hosted pages
 * (with a brand's tokens after it) and the console serves it before its own layout rules, so there is one
 * copy. Read once. In the bundle every module's import.meta.url is its service's main.mjs, and
 * scripts/build.mjs copies sesame.css beside it.
 */
export function baseCss(): Buffer {
  css ??= readFileSync(new URL('./sesame.css', import.meta.url));
  return css;
}
