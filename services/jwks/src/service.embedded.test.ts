import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { createLogger, runStandalone } from '@sesame/platform';
import { loadJwksConfig } from './config';
import { createJwksService } from './service';

const config = loadJwksConfig({ SESAME_ENV: 'test', LOG_LEVEL: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'sesame-jwks-service-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the service on the engine in `dir`, returns the kids /jwks publishes, stops it and closes the engine. */
async function publishedKids(): Promise<{ kids: string[]; stored: string[] }> {
  const engine = EmbeddedStore.open({ dir });
  try {
    const mod = await createJwksService(config, {
      logger: createLogger({ service: 'jwks', level: 'silent' }),
      embedded: engine,
    });
    const running = await runStandalone(mod, {
      httpPort: 0,
      grpcPort: 0,
      opsPort: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 5000,
    });
    try {
      const body = (await (await fetch(`http://127.0.0.1:${running.httpPort}/jwks`)).json()) as {
        keys: { kid: string }[];
      };
      const stored = engine.db.prepare('SELECT doc FROM jwks_keys').pluck().all() as string[];
      return { kids: body.keys.map((k) => k.kid), stored };
    } finally {
      await running.stop();
    }
  } finally {
    engine.close();
  }
}

describe('jwks service on the embedded engine', () => {
  it('publishes the same keys after a restart on the same data directory; private parts are stored sealed', async () => {
    const first = await publishedKids();
    assert.equal(first.kids.length, 4, 'sig RS256, PS256, ES256 and enc');
    const second = await publishedKids();
    assert.deepEqual(second.kids, first.kids, 'a restart keeps the signing and encryption keys');
    for (const doc of second.stored) {
      const key = JSON.parse(doc) as { privateKeyEnc: Record<string, string> };
      assert.deepEqual(Object.keys(key.privateKeyEnc).sort(), ['ciphertext', 'iv', 'kekId', 'tag']);
      assert.ok(!/PRIVATE KEY|"d":/.test(doc), 'no private key in the clear');
    }
  });
});
