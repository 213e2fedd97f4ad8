import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { readLayering } from '@sesame/testing';

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
const {
  imports,
  layerOf,
  leaf: LEAF,
  upwardImports,
  testHelperImports,
  cycles,
} = readLayering(dirname(fileURLToPath(import.meta.url)), layers);

describe('auth layering', () => {
  it('knows the layers of every top-level folder and file it checks', () => {
    assert.ok(imports.size > 100);
    assert.equal(layerOf('journeys/sign-in/checks.ts'), 3);
    assert.equal(layerOf('users/model.ts'), LEAF);
  });

  it('production code never imports a higher layer', () => {
    assert.deepEqual(upwardImports(), []);
  });

  it('production code never imports test helpers', () => {
    assert.deepEqual(testHelperImports(), []);
  });

  it('has no import cycle', () => {
    assert.deepEqual(cycles(), []);
  });
});
