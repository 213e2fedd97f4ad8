import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { ExampleConfigError, loadExampleConfig } from './config';

const dir = mkdtempSync(join(tmpdir(), 'sesame-example-'));
const demoFile = (content: unknown) => {
  const file = join(dir, `demo-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const demo = { issuer: 'http://localhost:8080', clientId: 'c1', clientSecret: 's1', adminKey: 'k' };

describe('the sample app’s configuration', () => {
  it('reads the issuer and the demo client from the demo file npm start wrote; port 3000 by default', () => {
    assert.deepEqual(loadExampleConfig({ SESAME_EXAMPLE_DEMO_FILE: demoFile(demo) }), {
      issuer: 'http://localhost:8080',
      clientId: 'c1',
      clientSecret: 's1',
      port: 3000,
    });
  });

  it('each SESAME_EXAMPLE_* variable and PORT override the file', () => {
    assert.deepEqual(
      loadExampleConfig({
        SESAME_EXAMPLE_DEMO_FILE: demoFile(demo),
        SESAME_EXAMPLE_ISSUER: 'https://id.example.com',
        SESAME_EXAMPLE_CLIENT_ID: 'c2',
        SESAME_EXAMPLE_CLIENT_SECRET: 's2',
        PORT: '3100',
      }),
      { issuer: 'https://id.example.com', clientId: 'c2', clientSecret: 's2', port: 3100 },
    );
  });

  it('no demo file and no variables: an error that says to run npm start first', () => {
    assert.throws(
      () => loadExampleConfig({ SESAME_EXAMPLE_DEMO_FILE: join(dir, 'missing.json') }),
      (err: Error) =>
        err instanceof ExampleConfigError && /SESAME_EXAMPLE_ISSUER.*run npm start first/.test(err.message),
    );
  });

  it('a demo file without an issuer (an older Sesame wrote it) needs SESAME_EXAMPLE_ISSUER', () => {
    const file = demoFile({ clientId: 'c1', clientSecret: 's1' });
    assert.throws(() => loadExampleConfig({ SESAME_EXAMPLE_DEMO_FILE: file }), /no SESAME_EXAMPLE_ISSUER/);
    assert.equal(
      loadExampleConfig({ SESAME_EXAMPLE_DEMO_FILE: file, SESAME_EXAMPLE_ISSUER: 'http://localhost:9090' })
        .issuer,
      'http://localhost:9090',
    );
  });

  it('a file that is not JSON, a bad PORT or issuer: refused by name', () => {
    assert.throws(
      () => loadExampleConfig({ SESAME_EXAMPLE_DEMO_FILE: demoFile('{oops') }),
      /is not a demo file/,
    );
    assert.throws(() => loadExampleConfig({ SESAME_EXAMPLE_DEMO_FILE: demoFile(demo), PORT: 'x' }), /PORT/);
    assert.throws(
      () => loadExampleConfig({ SESAME_EXAMPLE_DEMO_FILE: demoFile(demo), SESAME_EXAMPLE_ISSUER: 'nope' }),
      /SESAME_EXAMPLE_ISSUER/,
    );
  });
});
