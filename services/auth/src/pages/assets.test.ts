import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import express from 'express';
import { assetFiles } from './asset-files';
import { assetsRouter } from './assets';

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express().use('/assets', assetsRouter());
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}/assets`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const hashedName = (name: string) => assetFiles().get(name)!.hashedName;

describe('assetsRouter', () => {
  it.each([
    ['sesame.css', 'text/css; charset=utf-8'],
    ['flow-wait.js', 'text/javascript; charset=utf-8'],
    ['icons/Lock.svg', 'image/svg+xml'],
  ])('serves %s under its hashed name as %s, immutable for a year, nosniff', async (name, type) => {
    const response = await fetch(`${base}/${hashedName(name)}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(
      [
        response.headers.get('content-type'),
        response.headers.get('cache-control'),
        response.headers.get('x-content-type-options'),
      ],
      [type, 'public, max-age=31536000, immutable', 'nosniff'],
    );
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), assetFiles().get(name)!.body);
  });

  it('changes the URL when the content changes (the hash is of the content)', () => {
    assert.match(hashedName('sesame.css'), /^sesame\.[0-9a-f]{10}\.css$/);
  });

  it('sends gzip to clients that accept it', async () => {
    const response = await fetch(`${base}/${hashedName('sesame.css')}`);
    // fetch decodes gzip itself, so the header is what tells it was compressed.
    assert.equal(response.headers.get('content-encoding'), 'gzip');
    assert.equal(await response.text(), assetFiles().get('sesame.css')!.body.toString());
    assert.ok(gunzipSync(assetFiles().get('sesame.css')!.gzip!).equals(assetFiles().get('sesame.css')!.body));
  });

  it('serves the current file without long caching for an old hash (pages of the previous release)', async () => {
    const response = await fetch(`${base}/sesame.0123456789.css`);
    assert.deepEqual([response.status, response.headers.get('cache-control')], [200, 'no-cache']);
  });

  it.each(['sesame.css', 'nope.0123456789.css', '../files.ts', 'renderer.ts'])(
    'has nothing at %s',
    async (path) => {
      assert.equal((await fetch(`${base}/${path}`)).status, 404);
    },
  );
});
