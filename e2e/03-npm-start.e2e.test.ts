import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { HealthClient } from '@sesame/platform';
import { clientCredentials, eventually, repoRoot } from '@sesame/testing';

const services = ['auth', 'token', 'jwks', 'mgmt', 'activity-log', 'ciba-notifier'];

/** `npm start`: the embedded default, its data in one durable store (a temp data dir here), all six services in one process. */
// Each test and hook of this file may take this long (starting processes, load runs).
jest.setTimeout(240_000);

describe('npm start (embedded default)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sesame-start-'));
  const demoFile = join(tmp, 'demo.json');
  // Never the checkout's .sesame/data: a developer's own platform may hold it.
  const dataDir = join(tmp, 'data');
  let port = 0;
  let out = '';
  let child: ReturnType<typeof spawn>;
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;

  /** `npm start` on the temp data dir; resolves once it printed its banner. */
  const start = async () => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: '0', // the OS picks the port and the launcher prints it
      SESAME_DEMO_FILE: demoFile,
      SESAME_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    for (const v of ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL', 'SESAME_STORES'])
      delete env[v];
    out = '';
    child = spawn('npm', ['start'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (d: Buffer) => {
      out += d;
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const ready = await eventually(async () => /Sesame is running/.test(out), Boolean, 180_000, 200);
    assert.ok(ready, `npm start did not come up:\n${out}`);
    port = Number(/Sesame is running on http:\/\/localhost:(\d+)/.exec(out)?.[1]);
    assert.ok(port > 0, `no port in the launcher's output:\n${out}`);
  };
  beforeAll(start);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('writes the demo tenant, application, credentials and admin key to the demo file, readable by its owner only', () => {
    const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
    assert.equal(statSync(demoFile).mode & 0o777, 0o600);
    assert.deepEqual(Object.keys(demo).sort(), [
      'adminKey',
      'apiSecret',
      'appId',
      'clientId',
      'clientSecret',
      'credentialsId',
      'issuer',
      'ownerEmail',
      'redirectUri',
      'tenantId',
    ]);
    assert.equal(demo.redirectUri, 'http://localhost:3000/callback');
    // The sample app (npm run example) reads its issuer here: this start's URL.
    assert.equal(demo.issuer, `http://localhost:${port}`);
    for (const value of Object.values(demo)) assert.equal(typeof value, 'string');
  });

  /** Not a terminal: the banner is one pino JSON line whose message names the URL. */
  const banner = () => {
    const line = out.split('\n').find((l) => l.includes('"msg":"Sesame is running on'));
    assert.ok(line, `no JSON banner line:\n${out}`);
    return JSON.parse(line) as {
      level: string;
      url: string;
      console: string;
      sampleApp: string;
      outbox: string;
      demoFile: string;
      stores: { servers: string[]; dataDir: string | null };
      grpc: string;
    };
  };

  it('writes JSON lines when stdout is not a terminal, and no secret in them', () => {
    for (const line of out.split('\n').filter((l) => l.startsWith('{'))) JSON.parse(line);
    const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
    for (const secret of [demo.adminKey, demo.clientSecret, demo.apiSecret])
      assert.equal(out.includes(secret), false, 'a secret in the start output');
  });

  it('names what to open next (the Console, the mail outbox, the sample app) and where the secrets file is', () => {
    const b = banner();
    assert.equal(b.level, 'info');
    assert.equal(b.url, `http://localhost:${port}`);
    assert.equal(b.console, `http://localhost:${port}/console/`);
    // The development outbox exists only when mail is not sent over SMTP (this run's test servers may set it).
    assert.equal(b.outbox, process.env.SESAME_SMTP_URL ? undefined : `http://localhost:${port}/dev/mail`);
    assert.equal(b.sampleApp, 'http://localhost:3000');
    assert.equal(b.demoFile, demoFile);
  });

  it('says the data is kept, and where', () => {
    assert.deepEqual(banner().stores, { servers: [], dataDir });
    assert.ok(existsSync(join(dataDir, 'sesame.db')));
  });

  it('answers /healthz and /readyz for the process and for each service', async () => {
    assert.equal((await fetch(url('/healthz'))).status, 200);
    assert.equal((await fetch(url('/readyz'))).status, 200);
    for (const name of services) {
      assert.equal((await fetch(url(`/ops/${name}/healthz`))).status, 200, `${name} healthz`);
      assert.equal((await fetch(url(`/ops/${name}/readyz`))).status, 200, `${name} readyz`);
    }
  });

  it('every gRPC server answers its health check', async () => {
    const addresses = Object.fromEntries(
      banner()
        .grpc.split(' ')
        .map((pair) => pair.split('=')),
    );
    assert.deepEqual(Object.keys(addresses).sort(), [...services].sort());
    for (const name of services) {
      const health = new HealthClient(addresses[name]);
      try {
        assert.equal(await health.check(''), 'SERVING', name);
      } finally {
        health.close();
      }
    }
  });

  it('the demo API credentials get a management token at /token', async () => {
    const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
    const res = await clientCredentials(url('/token'), demo.credentialsId, demo.apiSecret);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { token_type: string; scope: string };
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.scope, 'svc_admin_api');
  });

  it('the CLI finds this start by itself: the URL in platform.json beside the demo file, its only tenant', async () => {
    const platform = JSON.parse(readFileSync(join(tmp, 'platform.json'), 'utf8'));
    assert.deepEqual(platform, {
      adminUrl: `http://localhost:${port}`,
      issuer: `http://localhost:${port}`,
      pid: platform.pid,
    });
    const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
    const env: Record<string, string | undefined> = { ...process.env, SESAME_DEMO_FILE: demoFile };
    for (const v of ['SESAME_ADMIN_URL', 'SESAME_ADMIN_KEY', 'SESAME_ADMIN_TOKEN']) delete env[v];
    // No --url, no --tenant: the port this start picked, and the one tenant the admin key sees.
    const apps = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [join(repoRoot, 'scripts/sesame.mjs'), 'app', 'list', '--json'],
        { cwd: tmp, env },
        (e, o, err) => (e ? reject(new Error(err)) : resolve(o)),
      ),
    );
    assert.deepEqual(
      JSON.parse(apps).applications.map((a: { appId: string }) => a.appId),
      [demo.appId],
    );
  });

  it('stops cleanly on SIGTERM to npm: drains, closes its port, exits 0', async () => {
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    assert.equal(code, 0, out.slice(-2000));
    assert.match(out, /"msg":"sesame stopped"/);
    await assert.rejects(fetch(url('/healthz')));
    assert.equal(existsSync(join(tmp, 'platform.json')), false, 'a clean stop removes platform.json');
  });

  it('starts again on the same store after SIGTERM and after kill -9 (no lock left behind), with the same admin key', async () => {
    const adminKey = JSON.parse(readFileSync(demoFile, 'utf8')).adminKey;
    await start();
    assert.equal(JSON.parse(readFileSync(demoFile, 'utf8')).adminKey, adminKey);
    assert.equal((await fetch(url('/readyz'))).status, 200);
    // kill -9 of the launcher itself (npm's grandchild): the process that holds the store, as owner.json says.
    const { pid } = JSON.parse(readFileSync(join(dataDir, 'owner.json'), 'utf8')) as { pid: number };
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(pid, 'SIGKILL');
    await exited;
    await start();
    assert.equal((await fetch(url('/readyz'))).status, 200);
    assert.equal(JSON.parse(readFileSync(demoFile, 'utf8')).adminKey, adminKey);
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    assert.equal(code, 0, out.slice(-2000));
  });
});
