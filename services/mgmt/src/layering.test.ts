import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { readLayering } from '@sesame/testing';

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
const {
  imports,
  layerOf,
  leaf: LEAF,
  upwardImports,
  testHelperImports,
  cycles,
} = readLayering(dirname(fileURLToPath(import.meta.url)), layers);

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
    assert.deepEqual(upwardImports(), []);
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
    assert.deepEqual(testHelperImports(), []);
  });

  it('has no import cycle', () => {
    assert.deepEqual(cycles(), []);
  });
});
