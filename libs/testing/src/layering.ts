import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * A service's layering, read from its source (the layering tests of auth and mgmt; docs/architecture.md,
 * "Rules of the layout"): `layers` top first, each a list of folders (`journeys/`) and files (`service.ts`)
 * under `src`; a path in no layer is a leaf, below them all. Only relative imports count: packages are not a
 * service's layers. Test files, `test-support` files and `testing/` are test-only.
 */
export interface Layering {
  /** Production files → the files each imports, paths relative to src. */
  imports: Map<string, string[]>;
  /** The layer index of a path (0 is the top); `leaf` for a path in no layer. */
  layerOf(path: string): number;
  leaf: number;
  /** "a -> b" for every production import of a higher layer. */
  upwardImports(): string[];
  /** "a -> b" for every production import of a test-only file. */
  testHelperImports(): string[];
  /** "a -> b -> … -> a" for every import cycle found. */
  cycles(): string[];
}

export const isTestOnly = (path: string) => /\.test\.ts$|test-support|^testing\//.test(path);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

export function readLayering(src: string, layers: readonly (readonly string[])[]): Layering {
  /** The file a relative import names (`./x` → x.ts or x/index.ts), relative to src. */
  const target = (from: string, spec: string) => {
    const base = resolve(dirname(from), spec);
    const file = [`${base}.ts`, join(base, 'index.ts'), base].find(
      (f) => existsSync(f) && statSync(f).isFile(),
    );
    return relative(src, file ?? base);
  };
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
  const leaf = layers.length;
  const layerOf = (path: string) => {
    const found = layers.findIndex((layer) =>
      layer.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p)),
    );
    return found < 0 ? leaf : found;
  };
  return {
    imports,
    layerOf,
    leaf,
    upwardImports: () =>
      [...imports].flatMap(([file, targets]) =>
        targets.filter((to) => layerOf(to) < layerOf(file)).map((to) => `${file} -> ${to}`),
      ),
    testHelperImports: () =>
      [...imports].flatMap(([file, targets]) => targets.filter(isTestOnly).map((to) => `${file} -> ${to}`)),
    cycles: () => {
      const found: string[] = [];
      const done = new Set<string>();
      const visit = (file: string, path: string[]) => {
        if (path.includes(file)) {
          found.push([...path.slice(path.indexOf(file)), file].join(' -> '));
          return;
        }
        if (done.has(file)) return;
        for (const to of imports.get(file) ?? []) visit(to, [...path, file]);
        done.add(file);
      };
      for (const file of imports.keys()) visit(file, []);
      return found;
    },
  };
}
