import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';

export type AxeViolation = Result;

let source: Promise<string> | undefined;
// The built file is read rather than imported: importing axe-core would run it in Node, where it has no
// document to work on; only its text is needed, to run in the page.
const axeSource = () => {
  source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
};

/**
 * Runs axe-core in the page and returns every violation. The source goes in through page.evaluate, which
 * is the DevTools protocol's Runtime evaluation: a page's Content-Security-Policy governs the page's own
 * scripts, not the debugger's, so pages with `script-src 'self'` and no 'unsafe-inline' are checked as
 * they are served (an injected <script> tag would be refused).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(await axeSource());
  const results = (await page.evaluate(
    'window.axe.run(document, { resultTypes: ["violations"] })',
  )) as AxeResults;
  return results.violations;
}

/** Violations a person using assistive technology cannot get past: the product allows none. */
export const isBlocking = (v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical';

/** One line per violation: rule id, impact, what it is, and the CSS targets of its nodes. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => {
      const targets = v.nodes.map((n) => n.target.join(' ')).join(', ');
      return `  ${v.id} (${v.impact}): ${v.help}; at ${targets}`;
    })
    .join('\n');
}
