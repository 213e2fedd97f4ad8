import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type Listening, type ServiceModule, listen } from '@sesame/platform';
import express from 'express';
import { mountServiceRoutes } from './mount-routes';

/** A service whose routes answer `paths` with its name. */
const serving = (name: string, paths: string[]) => {
  const routes = express.Router();
  for (const path of paths) routes.get(path, (_req, res) => void res.send(name));
  return { name, routes } as unknown as ServiceModule;
};

describe('mountServiceRoutes (the embedded default’s one port)', () => {
  let server: Listening;
  let base: string;
  beforeAll(async () => {
    const app = express();
    // auth last in the list, as serviceFactories has it after mgmt and token: it is mounted first all the same.
    mountServiceRoutes(app, [
      serving('mgmt', ['/shared', '/api/thing', '/console/page']),
      serving('token', ['/shared', '/token-only']),
      serving('auth', ['/shared', '/api/thing', '/console/page', '/flow/:id']),
    ]);
    app.use((_req, res) => void res.status(404).send('none'));
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close(1000));

  const get = async (path: string) => (await fetch(`${base}${path}`)).text();

  it("tries auth's routes before every other service's", async () => {
    assert.equal(await get('/shared'), 'auth');
    assert.equal(await get('/flow/f1'), 'auth');
    assert.equal(await get('/token-only'), 'token');
  });

  it("never tries auth's routes under /api and /console, in any letter case", async () => {
    assert.equal(await get('/api/thing'), 'mgmt');
    assert.equal(await get('/API/thing'), 'mgmt');
    assert.equal(await get('/console/page'), 'mgmt');
  });
});
