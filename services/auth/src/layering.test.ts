import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';

/**
 * The auth service's layers, top first (docs/architecture.md, "Rules of the layout"). Production code imports
 * only from its own layer or a lower one, and no file imports itself back through others. A path not listed
 * is a leaf (authorize/, users/, passkeys/, email/, devices/, i18n/, config.ts, …), below every layer here.
 */
const layers: readonly (readonly string[])[] = [
  ['main.ts', 'index.ts', 'testing/'],
  ['service.ts'],
  ['hosted-router.ts', 'build-hosted-deps.ts', 'grpc/', 'routes/'],
  ['journeys/'],
  ['ciba/'],
  ['steps/'],
  ['web/'],
  ['signin/'],
  ['flow/'],
  ['pages/', 'session/'],
];
const LEAF = layers.length;

const src = dirname(fileURLToPath(import.meta.url));
const isTestOnly = (path: string) => /\.test\.ts$|test-support|^testing\//.test(path);
const layerOf = (path: string) => {
  const found = layers.findIndex((layer) =>
    layer.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p)),
  );
  return found < 0 ? LEAF : found;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The file a relative import names (`./x` → x.ts or x/index.ts), relative to src/. */
function target(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  const file = [`${base}.ts`, join(base, 'index.ts'), base].find(
    (f) => existsSync(f) && statSync(f).isFile(),
  );
  return relative(src, file ?? base);
}

/** Production files and the files each imports (relative imports only: packages are not auth's layers). */
const imports = new Map(
  sourceFiles(src)
    .map((file) => [file, relative(src, file)] as const)
    .filter(([, rel]) => !isTestOnly(rel))
    .map(([file, rel]) => [
      rel,
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s+'(\.[^']*)'/g)].map(([, spec]) =>
        target(file, spec as string),
      ),
    ]),
);

describe('auth layering', () => {
  it('knows the layers of every top-level folder and file it checks', () => {
    assert.ok(imports.size > 100);
    assert.equal(layerOf('journeys/sign-in/checks.ts'), 3);
    assert.equal(layerOf('users/model.ts'), LEAF);
  });

  it('production code never imports a higher layer', () => {
    const upward: string[] = [];
    for (const [file, targets] of imports) {
      for (const to of targets) if (layerOf(to) < layerOf(file)) upward.push(`${file} -> ${to}`);
    }
    assert.deepEqual(upward, []);
  });

  it('production code never imports test helpers', () => {
    const helpers = [...imports].flatMap(([file, targets]) =>
      targets.filter(isTestOnly).map((to) => `${file} -> ${to}`),
    );
    assert.deepEqual(helpers, []);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, path: string[]) => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      if (done.has(file)) return;
      for (const to of imports.get(file) ?? []) visit(to, [...path, file]);
      done.add(file);
    };
    for (const file of imports.keys()) visit(file, []);
    assert.deepEqual(cycles, []);
  });
});
