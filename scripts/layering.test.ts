import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';

/**
 * ARCHITECTURE: services import libs, never each other; they talk over gRPC and Kafka. Tests may use another
 * service's real implementation (declared as a devDependency), production code may not.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const services = readdirSync(join(root, 'services'));
const packageOf = (service: string) =>
  JSON.parse(readFileSync(join(root, 'services', service, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
  };
const serviceNames = new Set(services.map((s) => packageOf(s).name));
const isTestOnly = (path: string) =>
  /\.test\.ts$|test-support|\/testing\//.test(path) || path.endsWith('/fake-peers.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('service layering', () => {
  it('no service depends on another service at run time', () => {
    for (const service of services) {
      const deps = Object.keys(packageOf(service).dependencies ?? {});
      assert.deepEqual(
        deps.filter((d) => serviceNames.has(d)),
        [],
        `services/${service}/package.json`,
      );
    }
  });

  it("no service's production code imports another service, by name or by path", () => {
    const offending: string[] = [];
    for (const service of services) {
      const own = join(root, 'services', service);
      for (const file of sourceFiles(join(own, 'src'))) {
        const rel = relative(root, file);
        if (isTestOnly(rel)) continue;
        for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'/g)) {
          const other = spec && serviceNames.has(spec.split('/').slice(0, 2).join('/'));
          const escapes = spec?.startsWith('.') && !resolve(dirname(file), spec).startsWith(`${own}/`);
          if (other || escapes) offending.push(`${rel}: ${spec}`);
        }
      }
    }
    assert.deepEqual(offending, []);
  });
});
