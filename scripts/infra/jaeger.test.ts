import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, it } from '@jest/globals';

const jaeger = (await import(join(dirname(fileURLToPath(import.meta.url)), 'jaeger.mjs'))) as {
  default: { prepare: () => Promise<{ args: string[] }> };
  jaegerUiDir: () => string | undefined;
};

// Jaeger's UI is not in the Go module: SESAME_INFRA_JAEGER_UI names a built one for the query server to serve.
describe('the Jaeger UI directory', () => {
  const saved = process.env.SESAME_INFRA_JAEGER_UI;
  const dir = mkdtempSync(join(tmpdir(), 'jaeger-ui-'));
  afterEach(() => {
    if (saved === undefined) Reflect.deleteProperty(process.env, 'SESAME_INFRA_JAEGER_UI');
    else process.env.SESAME_INFRA_JAEGER_UI = saved;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const staticFlags = async () =>
    (await jaeger.default.prepare()).args.filter((a) => a.startsWith('--query.static-files'));

  it('is left out when unset or empty (the placeholder page)', async () => {
    Reflect.deleteProperty(process.env, 'SESAME_INFRA_JAEGER_UI');
    assert.deepEqual(await staticFlags(), []);
    process.env.SESAME_INFRA_JAEGER_UI = '';
    assert.deepEqual(await staticFlags(), []);
  });

  it('is passed as --query.static-files when it holds a built UI', async () => {
    const ui = join(dir, 'build');
    mkdirSync(ui);
    writeFileSync(join(ui, 'index.html'), '<!doctype html>');
    process.env.SESAME_INFRA_JAEGER_UI = ui;
    assert.deepEqual(await staticFlags(), [`--query.static-files=${ui}`]);
  });

  it('refuses a directory without index.html, naming the variable', () => {
    process.env.SESAME_INFRA_JAEGER_UI = dir;
    assert.throws(
      () => jaeger.jaegerUiDir(),
      (err: Error) =>
        err.message ===
        `SESAME_INFRA_JAEGER_UI must name a built Jaeger UI (a directory with index.html), got "${dir}"`,
    );
  });
});
