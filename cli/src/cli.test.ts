import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { type AdminsRepositories, configSchema, createMgmtService, memoryAdmins } from '@sesame/mgmt-service';
import {
  GrpcServer,
  type PromiseClient,
  type RunningService,
  createClient,
  createLogger,
  notImplemented,
  runStandalone,
  sha256,
} from '@sesame/platform';
import { directory, keys } from '@sesame/proto';
import { repoRoot } from '@sesame/testing';

const ADMIN_KEY = randomBytes(24).toString('base64url');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Spawns the CLI exactly as `npm run sesame --` does (after bootstrap): node --import tsx cli/src/main.ts. */
function sesame(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'cli/src/main.ts'), ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A port nothing listens on: bound once, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('CLI against a running mgmt service (the admin key from the demo file by default)', () => {
  let running: RunningService;
  let keysServer: GrpcServer;
  let dirClient: PromiseClient<directory.DirectoryServiceClient>;
  const admins: AdminsRepositories = memoryAdmins();
  let env: Record<string, string>;

  beforeAll(async () => {
    keysServer = new GrpcServer({ logger: createLogger({ service: 'keys-fake', level: 'silent' }) });
    keysServer.add<keys.KeysServiceServer>(keys.KeysServiceService, {
      watchSigningKey: notImplemented,
      decryptRequestObject: notImplemented,
      rotateKeys: async () => ({
        signingKid: 'sig-2',
        encryptionKid: 'enc-2',
        activatesAt: 1_800_000_000_000,
      }),
      verifySignature: notImplemented,
      signLogoutToken: notImplemented,
    } as never);
    const keysPort = await keysServer.start(0, '127.0.0.1');
    keysServer.setServing(true);
    const config = configSchema.parse({
      SESAME_ENV: 'development',
      SESAME_KEYS_ADDR: `127.0.0.1:${keysPort}`,
      SESAME_ADMIN_KEY: ADMIN_KEY,
      SESAME_ADMIN_BREAK_GLASS: 'on',
    });
    const mod = await createMgmtService(config, {
      admins,
      bus: new MemoryEventBus(),
      logger: createLogger({ service: 'mgmt', level: 'silent' }),
    });
    running = await runStandalone(mod, {
      httpPort: 0,
      grpcPort: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 1000,
    });
    dirClient = createClient(directory.DirectoryServiceClient, `127.0.0.1:${running.grpcPort}`);
    const demoFile = join(mkdtempSync(join(tmpdir(), 'sesame-cli-')), 'demo.json');
    writeFileSync(demoFile, JSON.stringify({ tenantId: 't', adminKey: ADMIN_KEY }), { mode: 0o600 });
    env = { SESAME_ADMIN_URL: `http://127.0.0.1:${running.httpPort}`, SESAME_DEMO_FILE: demoFile };
  });
  afterAll(async () => {
    dirClient.close();
    await running.stop();
    await keysServer.stop(500);
  });

  it('--json prints exactly the documented objects, and the secrets it prints authenticate', async () => {
    const tenant = await sesame(['tenant', 'create', '--name', 'Acme', '--json'], env);
    assert.equal(tenant.code, 0, tenant.stderr);
    const { tenantId, ...restTenant } = JSON.parse(tenant.stdout);
    assert.deepEqual(restTenant, {});
    assert.match(tenantId, /^[0-9a-f-]{36}$/);
    assert.equal(tenant.stdout.trim().split('\n').length, 1);

    const app = await sesame(
      [
        'app',
        'create',
        '--tenant',
        tenantId,
        '--name',
        'Shop',
        '--redirect-uri',
        'https://shop.example/cb',
        '--ciba-mode',
        'ping',
        '--ciba-notification-endpoint',
        'https://shop.example/ciba',
        '--json',
      ],
      env,
    );
    assert.equal(app.code, 0, app.stderr);
    const created = JSON.parse(app.stdout);
    assert.deepEqual(Object.keys(created), ['appId', 'clientId', 'clientSecret']);
    const { client } = await dirClient.authenticateClient({
      clientId: created.clientId,
      clientSecret: created.clientSecret,
    });
    assert.equal(client?.ciba?.mode, directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING);
    assert.deepEqual(client?.redirectUris, ['https://shop.example/cb']);

    const spa = await sesame(
      [
        'app',
        'create',
        '--tenant',
        tenantId,
        '--name',
        'SPA',
        '--redirect-uri',
        'http://localhost:3000/cb',
        '--public',
        '--json',
      ],
      env,
    );
    assert.deepEqual(Object.keys(JSON.parse(spa.stdout)), ['appId', 'clientId']);

    const list = JSON.parse((await sesame(['app', 'list', '--tenant', tenantId, '--json'], env)).stdout);
    assert.deepEqual(Object.keys(list), ['applications']);
    assert.deepEqual(
      list.applications.map((a: { name: string }) => a.name),
      ['Shop', 'SPA'],
    );

    const creds = await sesame(['credentials', 'create', '--tenant', tenantId, '--json'], env);
    const { credentialsId, apiSecret, ...restCreds } = JSON.parse(creds.stdout);
    assert.deepEqual(restCreds, {});
    assert.deepEqual(await dirClient.authenticateApiCredentials({ credentialsId, secret: apiSecret }), {
      tenantId,
      credentialsId,
    });

    const revoked = JSON.parse(
      (
        await sesame(
          ['credentials', 'revoke', '--tenant', tenantId, '--credentials', credentialsId, '--json', '--yes'],
          env,
        )
      ).stdout,
    );
    assert.equal(revoked.credentialsId, credentialsId);
    assert.equal(typeof revoked.revokedAt, 'number');

    const removed = await sesame(
      ['app', 'remove', '--tenant', tenantId, '--app', created.appId, '--json', '--yes'],
      env,
    );
    assert.deepEqual(JSON.parse(removed.stdout), { status: 'success', appId: created.appId });

    const tenants = JSON.parse((await sesame(['tenant', 'list', '--json'], env)).stdout);
    assert.deepEqual(
      tenants.tenants.map((t: { tenantId: string }) => t.tenantId),
      [tenantId],
    );

    const blocked = await sesame(
      ['tenant', 'block-countries', '--tenant', tenantId, '--country', 'ru', '--country', 'KP', '--json'],
      env,
    );
    assert.deepEqual(JSON.parse(blocked.stdout), { tenantId, blockedCountries: ['KP', 'RU'] });
    const unblocked = await sesame(['tenant', 'unblock-countries', '--tenant', tenantId], env);
    assert.equal(unblocked.stdout.trim(), `No country is blocked for tenant ${tenantId}`);

    const rotated = await sesame(['keys', 'rotate', '--json'], env);
    assert.deepEqual(JSON.parse(rotated.stdout), {
      signingKid: 'sig-2',
      encryptionKid: 'enc-2',
      activatesAt: 1_800_000_000_000,
    });
  });

  it('app create --refresh-tokens on and app refresh-tokens set what the Directory serves', async () => {
    const tenantId = JSON.parse(
      (await sesame(['tenant', 'create', '--name', 'RT', '--json'], env)).stdout,
    ).tenantId;
    const created = await sesame(
      [
        'app',
        'create',
        '--tenant',
        tenantId,
        '--name',
        'RP',
        '--redirect-uri',
        'https://rp.example/cb',
        '--refresh-tokens',
        'on',
        '--refresh-idle-lifetime',
        '3600',
        '--json',
      ],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const { clientId, appId } = JSON.parse(created.stdout);
    const served = async () => (await dirClient.getClient({ clientId })).client?.refreshTokens;
    assert.deepEqual(await served(), { enabled: true, absoluteLifetimeS: 2_592_000, idleLifetimeS: 3600 });
    const changed = await sesame(
      [
        'app',
        'refresh-tokens',
        '--tenant',
        tenantId,
        '--app',
        appId,
        '--refresh-tokens',
        'on',
        '--refresh-absolute-lifetime',
        '86400',
        '--json',
      ],
      env,
    );
    assert.equal(changed.code, 0, changed.stderr);
    assert.deepEqual(JSON.parse(changed.stdout), {
      appId,
      refreshTokens: { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 86400 },
    });
    const off = await sesame(
      ['app', 'refresh-tokens', '--tenant', tenantId, '--app', appId, '--refresh-tokens', 'off'],
      env,
    );
    assert.equal(off.stdout.trim(), `Refresh tokens off for application "RP" (${appId})`);
    assert.equal((await served())?.enabled, false);
    const bad = await sesame(
      ['app', 'refresh-tokens', '--tenant', tenantId, '--app', appId, '--refresh-tokens', 'maybe'],
      env,
    );
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--refresh-tokens must be on or off/);
  });

  it('app ciba --ciba-pending-answer standard sets the pending answer the Directory serves, keeping the mode', async () => {
    const tenantId = JSON.parse(
      (await sesame(['tenant', 'create', '--name', 'CB', '--json'], env)).stdout,
    ).tenantId;
    const created = JSON.parse(
      (
        await sesame(
          [
            'app',
            'create',
            '--tenant',
            tenantId,
            '--name',
            'Bank',
            '--redirect-uri',
            'https://b.example/cb',
            '--json',
          ],
          env,
        )
      ).stdout,
    );
    const served = async () => (await dirClient.getClient({ clientId: created.clientId })).client?.ciba;
    assert.equal((await served())?.strictErrors, false);
    const args = ['app', 'ciba', '--tenant', tenantId, '--app', created.appId, '--ciba-pending-answer'];
    const changed = await sesame([...args, 'standard', '--json'], env);
    assert.equal(changed.code, 0, changed.stderr);
    assert.deepEqual(JSON.parse(changed.stdout), {
      appId: created.appId,
      ciba: { mode: 'poll', strictErrors: true },
    });
    assert.equal((await served())?.strictErrors, true);
    assert.equal((await served())?.mode, directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL);
  });

  it('human-readable output shows a secret once, with a warning to store it', async () => {
    const tenantId = JSON.parse(
      (await sesame(['tenant', 'create', '--name', 'H', '--json'], env)).stdout,
    ).tenantId;
    const out = await sesame(['credentials', 'create', '--tenant', tenantId], env);
    assert.equal(out.code, 0);
    assert.match(
      out.stdout,
      /^Created API credentials\n {2}credentialsId: \S+\n {2}apiSecret: {5}\S+ {2}\(shown only this once: store it now\)\n$/,
    );
  });

  it('cannot reach the API: one line naming the URL and `npm start`, exit 1, nothing on stdout', async () => {
    const port = await closedPort();
    const out = await sesame(['tenant', 'list'], {
      SESAME_ADMIN_URL: `http://127.0.0.1:${port}`,
      SESAME_ADMIN_KEY: ADMIN_KEY,
    });
    assert.equal(out.code, 1);
    assert.equal(out.stdout, '');
    assert.equal(
      out.stderr,
      `sesame: cannot reach the admin API at http://127.0.0.1:${port} (from SESAME_ADMIN_URL): is \`npm start\` running?\n`,
    );
  });

  it('API errors are one line with the code and the fields; a wrong admin key says how to pass one', async () => {
    const tenantId = JSON.parse(
      (await sesame(['tenant', 'create', '--name', 'E', '--json'], env)).stdout,
    ).tenantId;
    const bad = await sesame(
      ['app', 'create', '--tenant', tenantId, '--name', 'x', '--redirect-uri', 'https://x.example/cb#f'],
      env,
    );
    assert.equal(bad.code, 1);
    assert.equal(
      bad.stderr,
      'sesame: invalid request body (invalid_request): redirectUris.0: must not contain a fragment\n',
    );
    const key = await sesame(['tenant', 'list', '--admin-key', 'wrong-key-123'], env);
    assert.equal(key.code, 1);
    assert.equal(
      key.stderr,
      'sesame: the admin key is not valid (invalid_admin_key) (pass --admin-key or set SESAME_ADMIN_KEY)\n',
    );
  });

  it('without --admin-key, SESAME_ADMIN_KEY or a demo file holding one, it says how to get one and exits 2', async () => {
    const out = await sesame(['tenant', 'list'], {
      ...env,
      SESAME_DEMO_FILE: join(tmpdir(), 'no-such-demo.json'),
    });
    assert.equal(out.code, 2);
    assert.match(
      out.stderr,
      /^sesame: no admin key: pass --admin-key, set SESAME_ADMIN_KEY, or run npm start once/,
    );
  });

  it('usage mistakes are one line and exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['tenant', 'create'], /^sesame: "tenant create" needs --name; usage: tenant create --name NAME\n$/],
      [['tenant', 'explode'], /^sesame: unknown command "tenant explode" \(see --help\)\n$/],
      [
        ['tenant', 'list', '--tenant', 'x'],
        /^sesame: "tenant list" does not take --tenant; usage: tenant list\n$/,
      ],
      [
        [
          'app',
          'create',
          '--tenant',
          '00000000-0000-4000-8000-000000000000',
          '--name',
          'n',
          '--redirect-uri',
          'https://a/cb',
          '--ciba-mode',
          'ping',
        ],
        /^sesame: --ciba-mode ping needs --ciba-notification-endpoint URL\n$/,
      ],
      [['tenant', 'list', '--bogus'], /^sesame: Unknown option '--bogus'.*\(see --help\)\n$/],
    ];
    for (const [args, expected] of cases) {
      const out = await sesame(args, env);
      assert.equal(out.code, 2, args.join(' '));
      assert.match(out.stderr, expected);
      assert.equal(out.stdout, '');
    }
  });

  it('with a personal API token (SESAME_ADMIN_TOKEN or --token) acts as its administrator', async () => {
    const created = await sesame(
      ['tenant', 'bootstrap', '--name', 'Tok', '--owner-email', 'Founder@Tok.test', '--json'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const { tenantId } = JSON.parse(created.stdout);
    await admins.accounts.create({ tenantId, email: 'owner@tok.test', role: 'owner', createdAt: Date.now() });
    const first = `sesame_pat_${randomBytes(32).toString('base64url')}`;
    await admins.tokens.create({
      tokenId: 'first-token',
      tenantId,
      email: 'owner@tok.test',
      name: 'first',
      tokenHash: sha256(first),
      createdAt: Date.now(),
      expiresAt: Date.now() + 3_600_000,
    });
    const noKey = { ...env, SESAME_DEMO_FILE: join(tmpdir(), 'no-such-demo.json') };
    // A token cannot make tokens (only a console session with a recent sign-in can): the second is stored too.
    const token = `sesame_pat_${randomBytes(32).toString('base64url')}`;
    const tokenId = 'second-token';
    await admins.tokens.create({
      tokenId,
      tenantId,
      email: 'owner@tok.test',
      name: 'ci',
      tokenHash: sha256(token),
      createdAt: Date.now(),
      expiresAt: Date.now() + 3_600_000,
    });
    const invited = await sesame(
      [
        'admin',
        'invite',
        '--tenant',
        tenantId,
        '--email',
        'Support@Tok.test',
        '--role',
        'support',
        '--locale',
        'fr',
        '--token',
        token,
        '--json',
      ],
      noKey,
    );
    assert.equal(invited.code, 0, invited.stderr);
    assert.equal(JSON.parse(invited.stdout).email, 'support@tok.test');
    const badLocale = await sesame(
      [
        'admin',
        'invite',
        '--tenant',
        tenantId,
        '--email',
        'x@tok.test',
        '--role',
        'support',
        '--locale',
        'xx',
      ],
      { ...noKey, SESAME_ADMIN_TOKEN: token },
    );
    assert.notEqual(badLocale.code, 0);
    assert.match(badLocale.stderr, /locale: must be one of en, de, fr/);
    const list = JSON.parse(
      (await sesame(['admin', 'list', '--tenant', tenantId, '--token', token, '--json'], noKey)).stdout,
    );
    assert.deepEqual(
      list.administrators.map((a: { email: string }) => a.email),
      ['owner@tok.test'],
    );
    assert.deepEqual(
      list.invitations.map((i: { email: string }) => i.email),
      ['founder@tok.test', 'support@tok.test'],
    );
    // The token's administrator has an account in this one tenant: no --tenant needed, and names work.
    const byDefault = await sesame(['admin', 'list', '--token', token, '--json'], noKey);
    assert.equal(byDefault.code, 0, byDefault.stderr);
    assert.deepEqual(JSON.parse(byDefault.stdout), list);
    const byName = await sesame(['admin', 'list', '--tenant', 'tok', '--token', token, '--json'], noKey);
    assert.deepEqual(JSON.parse(byName.stdout), list);
    const revoked = await sesame(
      ['token', 'revoke', '--tenant', tenantId, '--token-id', tokenId, '--token', first, '--yes'],
      noKey,
    );
    assert.equal(revoked.code, 0, revoked.stderr);
    const refused = await sesame(['admin', 'list', '--tenant', tenantId, '--token', token], noKey);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not valid.*\(pass --token or set SESAME_ADMIN_TOKEN\)\n$/);
  });
});
