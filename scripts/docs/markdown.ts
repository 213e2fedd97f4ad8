// What the documentation tests read from Markdown: headings as GitHub turns them into anchors, relative links,
// and the README's ```sh blocks (scripts/docs/links.test.ts, e2e/readme-commands.e2e.test.ts).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The README and every Markdown page of docs/, as paths relative to the repository. */
export function documentationFiles(root = repoRoot): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Lines outside fenced code blocks (``` or ~~~), each with its 1-based number. */
function proseLines(markdown: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, i) => {
    const marker = /^\s*(```|~~~)/.exec(text)?.[1];
    if (marker && (fence === undefined || fence === marker)) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) out.push({ text, line: i + 1 });
  });
  return out;
}

/**
 * The anchor GitHub gives a heading: its text without inline markup, lower-cased, every character that is not
 * a letter, a mark, a number, a connector (`_`), a space or a hyphen dropped, spaces turned into hyphens.
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image shows its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor of a page: its headings' slugs (a repeated one gets -1, -2, … as on GitHub) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading !== undefined) {
      const slug = githubSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string);
  }
  return anchors;
}

export interface Link {
  line: number;
  target: string;
}

/** Links of the prose (inline links and images), leaving out inline code spans. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line, target: m[1] as string });
  }
  return links;
}

/** Why each relative link of `file` (relative to root) does not resolve; empty when they all do. */
export function brokenLinks(file: string, root = repoRoot): string[] {
  const markdown = readFileSync(join(root, file), 'utf8');
  const problems: string[] = [];
  for (const { line, target } of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not relative
    const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
    const where = `${file}:${line} ${target}`;
    const resolved = path === '' ? join(root, file) : resolve(dirname(join(root, file)), decodeURI(path));
    if (relative(root, resolved).startsWith('..')) {
      problems.push(`${where}: leaves the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith('.md')) continue;
    if (!anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor)))
      problems.push(`${where}: no heading with the anchor #${anchor}`);
  }
  return problems;
}

export interface ShBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The HTML comment `<!-- readme-test: long-running … -->` right before the fence marks it. */
  longRunning: boolean;
  /** The block's text, as it would be pasted into a shell. */
  script: string;
}

/** The ```sh blocks of a page, in order. */
export function shBlocks(markdown: string): ShBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`line ${i + 1}: a code block that never ends`);
    if (open[1] === 'sh' || open[1] === 'bash' || open[1] === 'shell') {
      const before = i > 0 ? (lines[i - 1] as string) : '';
      blocks.push({
        line: i + 1,
        longRunning: /^<!--\s*readme-test:\s*long-running\b/.test(before),
        script: lines.slice(i + 1, end).join('\n'),
      });
    }
    i = end;
  }
  return blocks;
}

/** A block's commands: one per line, a trailing `# comment` dropped, `\` continuations joined. */
export function commandsOf(script: string): string[] {
  return script
    .replace(/\\\n/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}
