import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';

/**
 * The mgmt service's layers, top first (docs/architecture.md, "Rules of the layout", mgmt). Production code
 * imports only from its own layer or a lower one, and no file imports itself back through others. A path not
 * listed is a leaf (events/, i18n/, secrets/, http/, openapi/, peers.ts, principal.ts), below every layer here.
 */
const layers: readonly (readonly string[])[] = [
  ['main.ts', 'index.ts', 'testing/'],
  ['service.ts'],
  ['http-routes.ts'],
  // The faces: the Console's pages, the admin and management HTTP API, the gRPC contract.
  ['console/', 'routes/', 'grpc/'],
  // The use cases both the Console and the admin API call.
  ['use-cases/'],
  // The stores and peers: administrators (and the permission table), the support port, the configuration.
  ['admins/', 'support/', 'config.ts'],
  ['directory/', 'branding/'],
];
/** The faces never import one another: what two of them share sits in use-cases/ or lower. */
const FACES = ['console/', 'routes/', 'grpc/'] as const;
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

/** Production files and the files each imports (relative imports only: packages are not mgmt's layers). */
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

describe('mgmt layering', () => {
  it('knows the layers of every top-level folder and file it checks', () => {
    assert.ok(imports.size > 100);
    assert.equal(layerOf('console/page-users.ts'), 3);
    assert.equal(layerOf('use-cases/applications/create-application.ts'), 4);
    assert.equal(layerOf('admins/permissions.ts'), 5);
    assert.equal(layerOf('directory/model.ts'), 6);
    assert.equal(layerOf('events/admin-events.ts'), LEAF);
  });

  it('production code never imports a higher layer', () => {
    const upward: string[] = [];
    for (const [file, targets] of imports) {
      for (const to of targets) if (layerOf(to) < layerOf(file)) upward.push(`${file} -> ${to}`);
    }
    assert.deepEqual(upward, []);
  });

  it('no face imports another face', () => {
    const faceOf = (path: string) => FACES.find((face) => path.startsWith(face));
    const across: string[] = [];
    for (const [file, targets] of imports) {
      const from = faceOf(file);
      for (const to of targets)
        if (from && faceOf(to) && faceOf(to) !== from) across.push(`${file} -> ${to}`);
    }
    assert.deepEqual(across, []);
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
