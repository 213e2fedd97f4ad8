import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, it } from '@jest/globals';
import { repoRoot } from '@sesame/testing';
import { type Io, run } from './cli';
import { commands } from './commands';
import { DEFAULT_ADMIN_URL, discoverAdminUrl } from './discovery';

const ACME = '00000000-0000-4000-8000-00000000000a';
const BETA = '00000000-0000-4000-8000-00000000000b';
const ACME2 = '00000000-0000-4000-8000-00000000000c';
const SHOP = '00000000-0000-4000-8000-0000000000a1';
const BLOG1 = '00000000-0000-4000-8000-0000000000b1';
const BLOG2 = '00000000-0000-4000-8000-0000000000b2';

/**
 * A stand-in admin API: the tenants a token sees depend on the token (`one` sees Acme only, as a personal API
 * token of an administrator of one tenant does; `many` sees three, two of them named Acme in any case).
 */
let server: Server;
let url: string;
const requests: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    const tenants =
      token === 'one'
        ? [{ tenantId: ACME, name: 'Acme', createdAt: 0 }]
        : [
            { tenantId: ACME, name: 'Acme', createdAt: 0 },
            { tenantId: BETA, name: 'Beta', createdAt: 0 },
            { tenantId: ACME2, name: 'acme', createdAt: 0 },
          ];
    const app = (appId: string, name: string) => ({
      appId,
      name,
      clientId: `client-${name}`,
      public: false,
      redirectUris: ['https://x.example/cb'],
    });
    const body =
      req.url === '/api/v1/admin/tenants'
        ? { tenants }
        : req.url?.endsWith('/applications')
          ? { applications: [app(SHOP, 'Shop'), app(BLOG1, 'Blog'), app(BLOG2, 'Blog')] }
          : { status: 'success', appId: SHOP, administrators: [], invitations: [] };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests.length = 0;
});

/** A port nothing listens on: bound once, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const fresh = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

async function sesame(
  args: string[],
  opts: { token?: string; cwd?: string; env?: Record<string, string> } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), cwd: opts.cwd ?? fresh('sesame-cwd-') };
  const env = { SESAME_ADMIN_URL: url, XDG_CONFIG_HOME: fresh('sesame-config-'), ...opts.env };
  const code = await run([...args, '--admin-key', opts.token ?? 'many'], env, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('CLI platform discovery: --url, SESAME_ADMIN_URL, the file npm start wrote, then localhost:8080', () => {
  const demoDir = fresh('sesame-discovery-');
  const demoFile = join(demoDir, 'demo.json');
  const platform = (pid: number) =>
    writeFileSync(join(demoDir, 'platform.json'), JSON.stringify({ adminUrl: 'http://127.0.0.1:4100', pid }));

  it('takes the first it has, and says where it came from', () => {
    const none = discoverAdminUrl({ flag: undefined, env: {}, demoFile });
    assert.equal(none.url, DEFAULT_ADMIN_URL);
    assert.match(none.source, /^the default; no .*platform\.json: set SESAME_ADMIN_URL or pass --url$/);
    platform(process.pid);
    assert.deepEqual(discoverAdminUrl({ flag: undefined, env: {}, demoFile }), {
      url: 'http://127.0.0.1:4100',
      source: `${join(demoDir, 'platform.json')}, written by npm start`,
    });
    const env = { SESAME_ADMIN_URL: 'http://127.0.0.1:4200' };
    assert.deepEqual(discoverAdminUrl({ flag: undefined, env, demoFile }), {
      url: 'http://127.0.0.1:4200',
      source: 'SESAME_ADMIN_URL',
    });
    assert.deepEqual(discoverAdminUrl({ flag: 'http://127.0.0.1:4300', env, demoFile }), {
      url: 'http://127.0.0.1:4300',
      source: '--url',
    });
  });

  it('skips the file of a start that has stopped (its pid runs no more)', async () => {
    const gone = await new Promise<number>((resolve) => {
      const child = execFile(process.execPath, ['-e', '0'], () => resolve(child.pid!));
    });
    platform(gone);
    const found = discoverAdminUrl({ flag: undefined, env: {}, demoFile });
    assert.equal(found.url, DEFAULT_ADMIN_URL);
    assert.match(found.source, new RegExp(`is from npm start pid ${gone}, which has stopped$`));
  });

  it('"cannot reach" names the file the URL came from', async () => {
    const dir = fresh('sesame-unreachable-');
    const port = await closedPort();
    writeFileSync(
      join(dir, 'platform.json'),
      JSON.stringify({ adminUrl: `http://127.0.0.1:${port}`, pid: process.pid }),
    );
    const out = await sesame(['tenant', 'list'], {
      env: { SESAME_ADMIN_URL: '', SESAME_DEMO_FILE: join(dir, 'demo.json') },
    });
    assert.equal(out.code, 1);
    assert.equal(
      out.err,
      `sesame: cannot reach the admin API at http://127.0.0.1:${port} (from ${join(dir, 'platform.json')}, written by npm start): is \`npm start\` running?`,
    );
  });
});

describe('CLI default tenant and names', () => {
  it('a token of one tenant needs no --tenant', async () => {
    const out = await sesame(['app', 'list', '--json'], { token: 'one' });
    assert.equal(out.code, 0, out.err);
    assert.deepEqual(requests, [
      'GET /api/v1/admin/tenants',
      `GET /api/v1/admin/tenants/${ACME}/applications`,
    ]);
  });

  it('a token of several tenants without --tenant is told which there are and how to choose', async () => {
    const out = await sesame(['app', 'list']);
    assert.equal(out.code, 2);
    assert.equal(
      out.err,
      `sesame: which tenant? this token can see 3: "Acme" (${ACME}), "Beta" (${BETA}), "acme" (${ACME2}); pass --tenant NAME or run \`npm run sesame -- tenant use NAME\``,
    );
  });

  it('tenant use NAME keeps a default for this directory and the ones below it', async () => {
    const cwd = fresh('sesame-project-');
    const config = fresh('sesame-config-');
    const env = { XDG_CONFIG_HOME: config };
    const used = await sesame(['tenant', 'use', 'Beta'], { cwd, env });
    assert.equal(used.code, 0, used.err);
    assert.match(used.out, new RegExp(`now use tenant "Beta" \\(${BETA}\\) without --tenant`));
    const stored = JSON.parse(readFileSync(join(config, 'sesame/cli.json'), 'utf8'));
    assert.deepEqual(stored.directories[cwd], { tenantId: BETA, name: 'Beta' });
    requests.length = 0;
    const below = join(cwd, 'sub');
    mkdirSync(below);
    const list = await sesame(['app', 'list', '--json'], { cwd: below, env });
    assert.equal(list.code, 0, list.err);
    assert.deepEqual(requests, [`GET /api/v1/admin/tenants/${BETA}/applications`]);
    // Commands whose --tenant is optional (else the caller's only tenant) take the default too.
    requests.length = 0;
    const erase = await sesame(['attempts', 'erase', '--email', 'a@b.c', '--yes'], { cwd, env });
    assert.equal(erase.code, 0, erase.err);
    assert.deepEqual(requests, [`POST /api/v1/admin/tenants/${BETA}/attempts/erase`]);
    // Another directory has no default: the token's tenants are asked for, and there are three.
    assert.equal((await sesame(['app', 'list'], { env })).code, 2);
    const unknown = await sesame(['tenant', 'use', 'Gamma'], { cwd, env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /^sesame: no tenant "Gamma"; there are "Acme" \(/);
  });

  it('--tenant and --app take names; the request carries the ids', async () => {
    const out = await sesame(['app', 'remove', '--tenant', 'Beta', '--app', 'shop', '--yes', '--json']);
    assert.equal(out.code, 0, out.err);
    assert.equal(requests.at(-1), `DELETE /api/v1/admin/tenants/${BETA}/applications/${SHOP}`);
    const byClientId = await sesame([
      'user',
      'add',
      '--tenant',
      'Beta',
      '--email',
      'a@b.c',
      '--app',
      'client-Shop',
    ]);
    assert.equal(byClientId.code, 0, byClientId.err);
    assert.match(requests.at(-1)!, new RegExp(`^POST /api/v1/admin/tenants/${BETA}/people`));
  });

  it('an ambiguous or unknown name is refused with the matches or the choices listed, and nothing is sent', async () => {
    const tenant = await sesame(['app', 'list', '--tenant', 'ACME']);
    assert.equal(tenant.code, 2);
    assert.equal(
      tenant.err,
      `sesame: 2 tenants are named "ACME": "Acme" (${ACME}), "acme" (${ACME2}); pass the id`,
    );
    const app = await sesame(['app', 'remove', '--tenant', 'Beta', '--app', 'Blog', '--yes']);
    assert.equal(app.code, 2);
    assert.equal(
      app.err,
      `sesame: 2 applications are named "Blog": "Blog" (${BLOG1}), "Blog" (${BLOG2}); pass the id`,
    );
    const unknown = await sesame(['app', 'remove', '--tenant', 'Beta', '--app', 'Nope', '--yes']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, new RegExp(`^sesame: no application "Nope"; there are "Shop" \\(${SHOP}\\), `));
    assert.ok(requests.every((r) => r.startsWith('GET ')));
  });

  it('tables show names first with the ids beside them', async () => {
    const out = await sesame(['app', 'list', '--tenant', 'Beta']);
    assert.match(out.out, new RegExp(`^Shop  ${SHOP}  clientId=client-Shop`));
    const tenants = await sesame(['tenant', 'list']);
    assert.match(tenants.out, new RegExp(`^Acme  ${ACME}  \\(created `));
  });
});

describe('CLI --version and --help', () => {
  const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;

  it('--version prints the version of the root package.json', async () => {
    const out = await sesame(['--version']);
    assert.deepEqual([out.code, out.out], [0, `sesame ${version}`]);
    assert.deepEqual(requests, []);
  });

  it('every command answers --help with its usage and an example of itself', async () => {
    for (const [name, command] of Object.entries(commands)) {
      const out = await sesame([...name.split(' '), '--help']);
      assert.equal(out.code, 0, name);
      assert.ok(out.out.startsWith(`usage: npm run sesame -- ${command.usage}`), name);
      assert.match(out.out, new RegExp(`\\nexample: npm run sesame -- ${name}( |$)`), name);
      // The example is complete: none of the usage's required options is left out.
      const example = out.out.split('\nexample: ')[1]!;
      for (const option of command.required)
        assert.ok(example.includes(`--${option} `), `${name} --${option}`);
    }
    assert.deepEqual(requests, []);
  });

  it('npm run sesame runs the prebuilt bundle (scripts/sesame.mjs), which answers like the sources', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [join(repoRoot, 'scripts/sesame.mjs'), '--version'],
        { cwd: repoRoot },
        (e, o) => (e ? reject(e) : resolve(o)),
      ),
    );
    assert.equal(out, `sesame ${version}\n`);
    assert.match(
      readFileSync(join(repoRoot, 'cli/dist/sesame.mjs'), 'utf8'),
      /^\/\/ Generated by scripts\/build-cli/,
    );
  });
});
