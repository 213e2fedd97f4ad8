import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { configSchema, createMgmtService } from '@sesame/mgmt-service';
import {
  GrpcServer,
  type RunningService,
  createLogger,
  notImplemented,
  runStandalone,
} from '@sesame/platform';
import { users } from '@sesame/proto';
import { repoRoot } from '@sesame/testing';

const ADMIN_KEY = randomBytes(24).toString('base64url');

function sesame(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'cli/src/main.ts'), ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** `npm run sesame -- user invite` against mgmt, with a stand-in for auth's Users.CreateActivationLink. */
describe('CLI: user invite', () => {
  let running: RunningService;
  let usersServer: GrpcServer;
  const calls: users.CreateActivationLinkRequest[] = [];
  let env: Record<string, string>;
  let tenantId: string;
  let appId: string;

  const admin = async (method: string, path: string, body?: unknown) =>
    (await (
      await fetch(`${env.SESAME_ADMIN_URL}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json()) as { tenantId: string; appId: string };

  beforeAll(async () => {
    usersServer = new GrpcServer({ logger: createLogger({ service: 'users-fake', level: 'silent' }) });
    usersServer.add<users.UsersServiceServer>(users.UsersServiceService, {
      removeUser: notImplemented,
      lookupUser: notImplemented,
      blockDevice: notImplemented,
      createInteractiveFlow: notImplemented,
      findUsers: notImplemented,
      getUserDetail: notImplemented,
      listUserSessions: notImplemented,
      signOutEverywhere: notImplemented,
      setUserDisabled: notImplemented,
      listUsers: notImplemented,
      removePasskey: notImplemented,
      removePhoneNumber: notImplemented,
      createActivationLink: async (req: users.CreateActivationLinkRequest) => {
        calls.push(req);
        return {
          channels: [{ channelType: 'email', target: req.userEmail, status: 'sent' }],
          flowId: 'f',
          expiresAt: 1,
        };
      },
    } as never);
    const usersPort = await usersServer.start(0, '127.0.0.1');
    usersServer.setServing(true);
    const config = configSchema.parse({
      SESAME_ENV: 'development',
      SESAME_USERS_ADDR: `127.0.0.1:${usersPort}`,
      SESAME_ADMIN_KEY: ADMIN_KEY,
      SESAME_ADMIN_BREAK_GLASS: 'on',
    });
    const mod = await createMgmtService(config, {
      bus: new MemoryEventBus(),
      logger: createLogger({ service: 'mgmt', level: 'silent' }),
    });
    running = await runStandalone(mod, {
      httpPort: 0,
      grpcPort: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 1000,
    });
    env = { SESAME_ADMIN_URL: `http://127.0.0.1:${running.httpPort}`, SESAME_ADMIN_KEY: ADMIN_KEY };
    ({ tenantId } = await admin('POST', '/api/v1/admin/tenants', { name: 'Invites' }));
    ({ appId } = await admin('POST', `/api/v1/admin/tenants/${tenantId}/applications`, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
      registrationRedirectUri: 'https://shop.example/registered',
    }));
  });
  afterAll(async () => {
    await running.stop();
    await usersServer.stop(500);
  });

  it('sends a registration link for the app, with the alias, and says so (--json: the spec 4.5 response)', async () => {
    const args = ['user', 'invite', '--tenant', tenantId, '--app', appId, '--email', 'ada@example.com'];
    const text = await sesame([...args, '--alias', 'ada-7'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Sent a registration link to ada@example\.com/);
    assert.equal(calls.at(-1)?.aliasValue, 'ada-7');
    assert.equal(calls.at(-1)?.aliasType, users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_ALIAS);
    assert.equal(calls.at(-1)?.registrationRedirectUri, 'https://shop.example/registered');
    const json = await sesame([...args, '--json'], env);
    assert.deepEqual(JSON.parse(json.stdout), {
      status: 'success',
      activationResult: {
        channelsResult: [{ channelType: 'email', target: 'ada@example.com', status: 'sent' }],
      },
    });
    assert.equal(calls.at(-1)?.aliasType, users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_NONE);
  });

  it('an app without a registration redirect URI, or a bad email, is one line naming the problem, exit 1', async () => {
    const { appId: bare } = await admin('POST', `/api/v1/admin/tenants/${tenantId}/applications`, {
      name: 'Bare',
    });
    const none = await sesame(
      ['user', 'invite', '--tenant', tenantId, '--app', bare, '--email', 'a@example.com'],
      env,
    );
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^sesame: .*registration redirect URI.*\(missing_registrationRedirectUri\)\n$/);
    const bad = await sesame(
      ['user', 'invite', '--tenant', tenantId, '--app', appId, '--email', 'nope'],
      env,
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /userEmail: must be an email address/);
  });

  it('without --email it prints the usage and exits 2', async () => {
    const res = await sesame(['user', 'invite', '--tenant', tenantId, '--app', appId], env);
    assert.equal(res.code, 2);
    assert.match(
      res.stderr,
      /needs --email; usage: user invite --tenant TENANT_ID --app APP_ID --email EMAIL \[--alias ALIAS\]/,
    );
  });
});
