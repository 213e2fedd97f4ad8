import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../index';
import { type AxeViolation, axeViolations, describeViolations, isBlocking } from './axe';
import { type Transfer, pageTransfers } from './traffic';

export const screenshotDir = join(repoRoot, '.sesame/artifacts/screenshots');

export interface CheckPageOptions {
  /** Most bytes the page's HTML, CSS, scripts and fonts may take on the wire (default 100 000). */
  budgetBytes?: number;
  /** Resources left out of the budget, e.g. the WebAuthn bundle. */
  excludeUrl?: RegExp;
}

export interface CheckPageResult {
  /** Bytes of the weighed resources, excluded ones left out. */
  bytes: number;
  /** What was weighed, largest first. */
  transfers: Transfer[];
  /** Every axe-core violation, including minor and moderate ones (which do not fail the check). */
  violations: AxeViolation[];
  /** Path of the full-page PNG. */
  screenshot: string;
}

/** A file name from a page name: letters, digits, dot, dash and underscore; anything else becomes a dash. */
export const screenshotName = (name: string) =>
  `${name.replace(/[^\w.-]+/g, '-').replace(/^[.-]+/, '') || 'page'}.png`;

/**
 * The product's rules for a hosted page, checked on the page as it is now: once it has loaded, a full-page
 * screenshot goes to .sesame/artifacts/screenshots/<name>.png (first, so a failing page is there to look
 * at), axe-core finds no serious or critical violation, and the page's HTML, CSS, scripts and fonts took
 * under the budget on the wire (a cold load, response headers included). Throws one error naming every
 * broken rule.
 */
export async function checkPage(
  page: Page,
  name: string,
  opts: CheckPageOptions = {},
): Promise<CheckPageResult> {
  const { budgetBytes = 100_000, excludeUrl } = opts;
  await page.waitForLoadState('load');
  await page.evaluate('document.fonts.ready.then(() => undefined)');
  const all = await pageTransfers(page);

  await mkdir(screenshotDir, { recursive: true });
  const screenshot = join(screenshotDir, screenshotName(name));
  await page.screenshot({ path: screenshot, fullPage: true });

  const violations = await axeViolations(page);
  const transfers = all.filter((t) => !excludeUrl?.test(t.url)).sort((a, b) => b.bytes - a.bytes);
  const bytes = transfers.reduce((sum, t) => sum + t.bytes, 0);

  const problems: string[] = [];
  const blocking = violations.filter(isBlocking);
  if (blocking.length > 0) {
    problems.push(
      `${blocking.length} serious or critical accessibility violation(s):\n${describeViolations(blocking)}`,
    );
  }
  if (bytes >= budgetBytes) {
    const list = transfers.map((t) => `  ${t.bytes} B ${t.type} ${t.url}`).join('\n');
    problems.push(`${bytes} bytes transferred, budget ${budgetBytes}; largest first:\n${list}`);
  }
  if (problems.length > 0) {
    throw new Error(
      `page "${name}" (${page.url()}) fails the hosted-page rules (screenshot ${screenshot}):\n${problems.join('\n')}`,
    );
  }
  return { bytes, transfers, violations, screenshot };
}
