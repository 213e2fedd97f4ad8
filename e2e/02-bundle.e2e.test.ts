import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { HealthClient } from '@sesame/platform';
import { eventually, repoRoot } from '@sesame/testing';
import { type BuildOptions, build } from 'esbuild';
import { PAGE_NAMES } from '../services/auth/src/pages/views';

/** The production artifact: `npm run build` bundles each service into one file the image runs. */
// Each test and hook of this file may take this long (starting processes, load runs).
jest.setTimeout(240_000);

describe('bundled services (dist/, what the container image runs)', () => {
  const children: ChildProcess[] = [];
  beforeAll(() => {
    const res = spawnSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    assert.equal(res.status, 0, res.stderr);
  });
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('every service is bundled into dist/services/<name>/main.mjs', () => {
    for (const name of ['auth', 'token', 'jwks', 'mgmt', 'activity-log', 'ciba-notifier']) {
      assert.ok(existsSync(join(repoRoot, 'dist/services', name, 'main.mjs')), name);
    }
  });

  it('auth code bundled into dist/services/auth finds the IP-location database the build copied into dist/', async () => {
    // The same esbuild options as the service bundles, for a three-line program next to auth's main.mjs.
    const { bundleOptions } = (await import(pathToFileURL(join(repoRoot, 'scripts/build.mjs')).href)) as {
      bundleOptions: (entry: string, outfile: string) => BuildOptions;
    };
    const outfile = join(repoRoot, 'dist/services/auth/location-check.mjs');
    const { entryPoints: _, ...options } = bundleOptions('', outfile);
    const contents = [
      "import { closeLocationLookup, openLocationLookup } from '@sesame/auth-service/devices';",
      "console.log(JSON.stringify((await openLocationLookup()).lookup('8.8.8.8')));",
      'closeLocationLookup();',
    ].join('\n');
    await build({ ...options, stdin: { contents, resolveDir: join(repoRoot, 'e2e'), loader: 'ts' } });
    try {
      const res = spawnSync(process.execPath, [outfile], {
        cwd: '/',
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      });
      assert.equal(res.status, 0, res.stderr);
      const location = JSON.parse(res.stdout);
      assert.deepEqual([location.country, location.source], ['US', 'dbip-city-lite']);
    } finally {
      rmSync(outfile, { force: true });
      rmSync(`${outfile}.map`, { force: true });
      rmSync(`${outfile}.LEGAL.txt`, { force: true });
    }
  });

  it('auth code bundled into dist/services/auth renders every page from the templates and assets the build copied', async () => {
    // The pages' templates live beside their steps and journeys; the bundle reads them beside main.mjs.
    const { bundleOptions } = (await import(pathToFileURL(join(repoRoot, 'scripts/build.mjs')).href)) as {
      bundleOptions: (entry: string, outfile: string) => BuildOptions;
    };
    const outfile = join(repoRoot, 'dist/services/auth/pages-check.mjs');
    const { entryPoints: _, ...options } = bundleOptions('', outfile);
    const contents = [
      "import { createPageRenderer, PAGE_NAMES } from '../services/auth/src/pages';",
      '// Compiles every template at creation: a template missing from the bundle throws here.',
      'const renderer = createPageRenderer();',
      "console.log(JSON.stringify([PAGE_NAMES.length, renderer.render('done', 'en', {}).includes('<html')]));",
    ].join('\n');
    await build({ ...options, stdin: { contents, resolveDir: join(repoRoot, 'e2e'), loader: 'ts' } });
    try {
      const res = spawnSync(process.execPath, [outfile], {
        cwd: '/',
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      });
      assert.equal(res.status, 0, res.stderr);
      // As many pages as the source declares, each compiled from a template the build copied.
      assert.deepEqual(JSON.parse(res.stdout), [PAGE_NAMES.length, true]);
    } finally {
      rmSync(outfile, { force: true });
      rmSync(`${outfile}.map`, { force: true });
      rmSync(`${outfile}.LEGAL.txt`, { force: true });
    }
  });

  it('code bundled under dist/ opens the embedded store with the SQLite driver the build kept external and copied', async () => {
    const { bundleOptions } = (await import(pathToFileURL(join(repoRoot, 'scripts/build.mjs')).href)) as {
      bundleOptions: (entry: string, outfile: string) => BuildOptions;
    };
    const outfile = join(repoRoot, 'dist/services/mgmt/store-check.mjs');
    const dir = mkdtempSync(join(tmpdir(), 'sesame-bundle-store-'));
    const { entryPoints: _, ...options } = bundleOptions('', outfile);
    const contents = [
      "import { EmbeddedStore } from './src/embedded-store';",
      'const store = EmbeddedStore.open({ dir: process.argv[2] });',
      "store.migrate('check', [(db) => db.exec('CREATE TABLE check_rows (x INTEGER) STRICT')]);",
      "console.log(JSON.stringify([store.versionOf('check'), store.db.pragma('journal_mode', { simple: true })]));",
      'store.close();',
    ].join('\n');
    const built = await build({
      ...options,
      metafile: true,
      stdin: { contents, resolveDir: join(repoRoot, 'libs/embedded-store'), loader: 'ts' },
    });
    try {
      // The native driver is not in the bundle: it is loaded from dist/node_modules at run time.
      assert.ok(!Object.keys(built.metafile!.inputs).some((input) => input.includes('better-sqlite3')));
      const res = spawnSync(process.execPath, [outfile, dir], {
        cwd: '/',
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      });
      assert.equal(res.status, 0, res.stderr);
      assert.deepEqual(JSON.parse(res.stdout), [1, 'wal']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      for (const suffix of ['', '.map', '.LEGAL.txt']) rmSync(`${outfile}${suffix}`, { force: true });
    }
  });

  it('a bundled service starts with only node, serves /healthz and grpc.health.v1, and exits 0 on SIGTERM', async () => {
    const { child, started } = await startBundledJwks(children, {});
    const [, httpPort, grpcPort] = started;
    assert.equal((await fetch(`http://127.0.0.1:${httpPort}/healthz`)).status, 200);
    const health = new HealthClient(`127.0.0.1:${grpcPort}`);
    assert.equal(await health.check(''), 'SERVING');
    health.close();
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    assert.equal(code, 0);
  });
  it('a bundled service with tracing on sends its spans to the collector from its export worker', async () => {
    const bodies: Array<{
      resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ spans: Array<{ name: string }> }> }>;
    }> = [];
    const collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces')
          bodies.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const { child, started } = await startBundledJwks(children, {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        OTEL_TRACES_SAMPLER: 'always_on',
      });
      await fetch(`http://127.0.0.1:${started[1]}/jwks`);
      const names = await eventually(
        async () =>
          bodies.flatMap((b) =>
            b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((x) => x.name))),
          ),
        (n) => n.length > 0,
        10_000,
      );
      assert.deepEqual(names, ['GET /jwks']);
      assert.deepEqual(bodies[0]!.resourceSpans[0]!.resource, {
        attributes: [{ key: 'service.name', value: { stringValue: 'jwks' } }],
        droppedAttributesCount: 0,
      });
      const code = await new Promise<number | null>((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
      assert.equal(code, 0);
    } finally {
      await new Promise<void>((resolve) => collector.close(() => resolve()));
    }
  });

  it('a bundled service logs exports its collector refuses, without the configured API key or URL credentials', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { child, started, output } = await startBundledJwks(children, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://tenant-7:url-secret@127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20collector-secret-key',
      OTEL_TRACES_SAMPLER: 'always_on',
    });
    await fetch(`http://127.0.0.1:${started[1]}/jwks`);
    const line = await eventually(
      async () =>
        output()
          .split('\n')
          .find((l) => l.includes('"traces not exported"')),
      (l) => l !== undefined,
      10_000,
    );
    assert.ok(line, `no warning in output:\n${output()}`);
    const logged = JSON.parse(line) as Record<string, unknown>;
    assert.deepEqual(
      [logged.level, logged.why, logged.batches, logged.spans],
      ['warn', 'ECONNREFUSED', 1, 1],
    );
    assert.equal(logged.url, `http://[redacted]@127.0.0.1:${port}/v1/traces`);
    assert.doesNotMatch(output(), /collector-secret-key|url-secret/);
    child.kill('SIGTERM');
  });
});

/**
 * Starts dist/services/jwks/main.mjs with only node and `env` on ephemeral ports (added to `children` at once,
 * for afterAll to kill); its start line's ports.
 */
async function startBundledJwks(children: ChildProcess[], env: Record<string, string>) {
  const child = spawn(process.execPath, [join(repoRoot, 'dist/services/jwks/main.mjs')], {
    cwd: '/',
    env: {
      PATH: process.env.PATH,
      HTTP_PORT: '0',
      GRPC_PORT: '0',
      OPS_PORT: '0',
      LOG_LEVEL: 'info',
      HTTP_HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const collect = (d: Buffer) => {
    out += d;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const started = await eventually(
    async () => out.match(/"httpPort":(\d+),"grpcPort":(\d+)/),
    (m) => m !== null,
    60_000,
  );
  assert.ok(started, `no start line in output:\n${out}`);
  return { child, started, output: () => out };
}
