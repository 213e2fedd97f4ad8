import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import {
  anchorsOf,
  brokenLinks,
  commandsOf,
  documentationFiles,
  githubSlug,
  repoRoot,
  shBlocks,
} from './markdown';

/** Issue 39: no broken relative link or #anchor in README.md and docs/, and a README a newcomer can read. */
describe('the documentation', () => {
  for (const file of documentationFiles()) {
    it(`${file}: every relative link and #anchor resolves`, () => {
      assert.deepEqual(brokenLinks(file), []);
    });
  }

  it('README.md is at most 150 lines and names no file outside the repository', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length <= 150, `README.md has ${readme.split('\n').length} lines`);
    assert.doesNotMatch(readme, /\.\.\/(shared|spec)|ARCHITECTURE\.md|interface\.md/);
  });

  it('docs/README.md links every page of docs/', () => {
    const index = readFileSync(join(repoRoot, 'docs/README.md'), 'utf8');
    for (const file of documentationFiles().filter((f) => f.startsWith('docs/') && f !== 'docs/README.md'))
      assert.ok(index.includes(`](${file.slice('docs/'.length)})`), `docs/README.md does not link ${file}`);
  });
});

describe('the link checker', () => {
  it('makes anchors as GitHub does', () => {
    assert.equal(githubSlug('`npm start`'), 'npm-start');
    assert.equal(
      githubSlug('Logout (auth): RP-Initiated Logout 1.0 and Back-Channel Logout 1.0'),
      'logout-auth-rp-initiated-logout-10-and-back-channel-logout-10',
    );
    assert.equal(githubSlug('Interactive init (mgmt on api_url, …)'), 'interactive-init-mgmt-on-api_url-');
    assert.equal(githubSlug('See [the spec](x.md) now'), 'see-the-spec-now');
    assert.deepEqual([...anchorsOf('# A\n## A\n```sh\n# not a heading\n```\n## A\n')], ['a', 'a-1', 'a-2']);
  });

  it('reports a missing file, a missing anchor and a link out of the repository, not links in code', () => {
    const root = mkdtempSync(join(tmpdir(), 'sesame-docs-links-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs/a.md'), '# Page A\n\n## Part one\n');
    writeFileSync(
      join(root, 'README.md'),
      [
        '# Readme',
        '[ok](docs/a.md#part-one) [ok](#readme) [web](https://example.com/x.md#nope)',
        '[gone](docs/b.md) [bad anchor](docs/a.md#part-two) [out](../elsewhere.md)',
        '`[code](docs/none.md)`',
        '```md',
        '[in a block](docs/none.md)',
        '```',
      ].join('\n'),
    );
    assert.deepEqual(documentationFiles(root), ['README.md', 'docs/a.md']);
    assert.deepEqual(brokenLinks('README.md', root), [
      'README.md:3 docs/b.md: no such file',
      'README.md:3 docs/a.md#part-two: no heading with the anchor #part-two',
      'README.md:3 ../elsewhere.md: leaves the repository',
    ]);
  });

  it('extracts ```sh blocks, their long-running mark, and their commands', () => {
    const md = [
      '<!-- readme-test: long-running. -->',
      '```sh',
      'npm start   # terminal 1',
      '```',
      '```ts',
      'const x = 1;',
      '```',
      '```sh',
      '# a comment line',
      'curl -s localhost:8080/a \\',
      '  -d b=c',
      '```',
    ].join('\n');
    const blocks = shBlocks(md);
    assert.deepEqual(
      blocks.map((b) => [b.line, b.longRunning]),
      [
        [2, true],
        [8, false],
      ],
    );
    assert.deepEqual(commandsOf(blocks[0]?.script ?? ''), ['npm start']);
    assert.deepEqual(commandsOf(blocks[1]?.script ?? ''), ['curl -s localhost:8080/a   -d b=c']);
  });
});
