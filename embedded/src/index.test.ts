import assert from 'node:assert/strict';
import { connect, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { routeTable } from '@sesame/mgmt-service/testing/route-table';
import { HealthClient } from '@sesame/platform';
import type express from 'express';
import { type Embedded, startEmbedded } from './index';
import { NOT_AUTH_PREFIXES } from './mount-routes';

const env = { LOG_LEVEL: 'silent', SESAME_ENV: 'test' };

describe('startEmbedded with port 0 (in-memory stores)', () => {
  let embedded: Embedded;
  beforeAll(async () => {
    embedded = await startEmbedded({ port: 0, env });
  });
  afterAll(() => embedded?.stop());

  it('serves HTTP on the port the OS picked, and says so in its URL', async () => {
    assert.ok(embedded.port > 0);
    assert.equal(embedded.url, `http://localhost:${embedded.port}`);
    const res = await fetch(`http://127.0.0.1:${embedded.port}/.well-known/openid-configuration`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { issuer: string }).issuer, embedded.url);
  });

  it("auth's routes, never tried under /api and /console (mount-routes.ts), have none there, and those paths still reach mgmt", async () => {
    const authRoutes = routeTable(embedded.services.auth!.routes as express.Router);
    assert.ok(authRoutes.some((r) => r.method === 'GET' && r.path === '/flow/:flowId'));
    const skipped = authRoutes.filter((r) =>
      NOT_AUTH_PREFIXES.some((p) => r.path.toLowerCase() === p || r.path.toLowerCase().startsWith(`${p}/`)),
    );
    assert.deepEqual(skipped, [], 'a route of auth under a prefix the embedded app never lets auth see');
    const base = `http://127.0.0.1:${embedded.port}`;
    const mgmt = await fetch(`${base}/api/v1/mgmt/activity-logs`, { method: 'POST' });
    assert.equal(mgmt.status, 401);
    assert.match(mgmt.headers.get('content-type') ?? '', /json/);
    const upperCase = await fetch(`${base}/API/v1/admin/tenants`);
    assert.equal(
      upperCase.status,
      401,
      'express matches mount paths without letter case, and so does the gate',
    );
    const consolePage = await fetch(`${base}/console/`, { redirect: 'manual' });
    assert.ok([200, 302, 303].includes(consolePage.status), `console ${consolePage.status}`);
    const unknownFlow = await fetch(`${base}/flow/no-such-flow`);
    assert.equal(unknownFlow.status, 410, 'the page of a flow that is gone');
    assert.match(unknownFlow.headers.get('content-type') ?? '', /html/);
  });

  it('reports the gRPC address each service really listens on, all SERVING', async () => {
    assert.deepEqual(Object.keys(embedded.grpcAddresses).sort(), [
      'activity-log',
      'auth',
      'ciba-notifier',
      'jwks',
      'mgmt',
      'token',
    ]);
    for (const [name, address] of Object.entries(embedded.grpcAddresses)) {
      const health = new HealthClient(address);
      try {
        assert.equal(await health.check(), 'SERVING', name);
      } finally {
        health.close();
      }
    }
  });
});

describe('startEmbedded admin key', () => {
  it('makes a random admin key when none is given: the once-published dev-admin-key is refused', async () => {
    const embedded = await startEmbedded({ port: 0, env, seedDemo: true });
    try {
      assert.match(embedded.adminKey, /^[A-Za-z0-9_-]{43}$/);
      const call = (key: string) =>
        fetch(`${embedded.url}/api/v1/admin/tenants`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal((await call('dev-admin-key')).status, 401);
      assert.equal((await call(embedded.adminKey)).status, 200);
    } finally {
      await embedded.stop();
    }
  });
});

describe('startEmbedded demo Owner and break-glass', () => {
  it('seeds the demo tenant with an Owner (ownerEmail) while the bootstrap key keeps working (break-glass on)', async () => {
    const embedded = await startEmbedded({
      port: 0,
      env: { ...env, SESAME_ENV: 'development' },
      seedDemo: true,
    });
    try {
      assert.equal(embedded.demo?.ownerEmail, 'owner@example.com');
      const T = `${embedded.url}/api/v1/admin/tenants`;
      const auth = { authorization: `Bearer ${embedded.adminKey}`, 'content-type': 'application/json' };
      const admins = (await (
        await fetch(`${T}/${embedded.demo!.tenantId}/administrators`, { headers: auth })
      ).json()) as { administrators: { email: string; role: string }[] };
      assert.deepEqual(
        admins.administrators.map((a) => [a.email, a.role]),
        [['owner@example.com', 'owner']],
      );
      // Invitation mail lands in the one development outbox that /dev/mail shows.
      const invited = await fetch(`${T}/${embedded.demo!.tenantId}/invitations`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ email: 'helper@example.com', role: 'support' }),
      });
      assert.equal(invited.status, 201);
      const page = await (await fetch(`${embedded.url}/dev/mail`)).text();
      assert.match(page, /helper@example\.com/);
    } finally {
      await embedded.stop();
    }
  });

  it('an invalid SESAME_ADMIN_BREAK_GLASS refuses to start, naming the variable', async () => {
    await assert.rejects(
      startEmbedded({ port: 0, env: { ...env, SESAME_ENV: 'test', SESAME_ADMIN_BREAK_GLASS: 'maybe' } }),
      /SESAME_ADMIN_BREAK_GLASS/,
    );
  });
});

describe('startEmbedded gRPC (plaintext in the embedded default)', () => {
  it("binds every gRPC server to loopback only: the machine's other addresses refuse the port", async () => {
    const embedded = await startEmbedded({ port: 0, env });
    try {
      const external = Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && i.family === 'IPv4' && !i.internal)
        .map((i) => i!.address);
      for (const address of Object.values(embedded.grpcAddresses)) {
        assert.match(address, /^127\.0\.0\.1:\d+$/);
        const port = Number(address.split(':')[1]);
        for (const host of external) {
          const refused = await new Promise<boolean>((resolve) => {
            const socket = connect({ host, port });
            socket.once('connect', () => {
              socket.destroy();
              resolve(false);
            });
            socket.once('error', () => resolve(true));
          });
          assert.ok(refused, `${host}:${port} accepted a connection`);
        }
      }
    } finally {
      await embedded.stop();
    }
  });
});

describe('startEmbedded on a port already taken', () => {
  it('rejects with EADDRINUSE before starting any service', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      await assert.rejects(startEmbedded({ port, host: '127.0.0.1', env }), { code: 'EADDRINUSE' });
    } finally {
      blocker.close();
    }
  });
});
