import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import express from 'express';
import { type Listening, listen } from './http';
import { prefixGate } from './prefix-gate';

describe('prefixGate', () => {
  let server: Listening;
  let base: string;
  beforeAll(async () => {
    const app = express();
    const admin = express.Router().get('/api/thing', (_req, res) => void res.send('admin'));
    const pages = express
      .Router()
      .get('/apix', (_req, res) => void res.send('pages apix'))
      .get('/flow/:id', (req, res) => void res.send(`pages ${req.params.id}`))
      .get('/api/thing', (_req, res) => void res.send('pages must not see this'));
    app.use(prefixGate('elsewhere', ['/api'], pages));
    app.use(prefixGate('under', ['/api'], admin));
    app.use((_req, res) => void res.status(404).send('none'));
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close(1000));

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    return `${res.status} ${await res.text()}`;
  };

  it('runs the routers only under the prefixes (under), or only elsewhere, paths left whole', async () => {
    assert.equal(await get('/api/thing'), '200 admin');
    assert.equal(await get('/flow/f1'), '200 pages f1');
    assert.equal(await get('/api'), '404 none', 'the prefix itself is under it');
  });

  it('compares without letter case, as express matches mount paths, and only at a slash', async () => {
    assert.equal(await get('/API/thing'), '200 admin');
    assert.equal(await get('/apix'), '200 pages apix', '/apix is not under /api');
  });

  it('shows the inner routers as a mounted router does (route tables read its stack)', () => {
    const gate = prefixGate(
      'under',
      ['/x'],
      express.Router().get('/x/y', (_req, res) => void res.end()),
    );
    const [layer] = (gate as unknown as { stack: { handle: { stack: { route?: { path: string } }[] } }[] })
      .stack;
    assert.equal(layer?.handle.stack[0]?.route?.path, '/x/y');
  });
});
