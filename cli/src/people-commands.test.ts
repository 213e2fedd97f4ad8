import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  MemorySupport,
  type MgmtHarness,
  startMgmt,
  supportData,
} from '@sesame/mgmt-service/testing/support';
import { run, usage } from './cli';
import { localTime } from './logs-commands';

const CREATED = Date.UTC(2026, 0, 1, 9);
const USED = Date.UTC(2026, 0, 2, 9);

/** Issue 38: the list of people, a person's page, Add a person, Remove passkey / phone, against a running mgmt. */
describe('CLI: people', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let supportEnv: Record<string, string>;
  let adminEnv: Record<string, string>;
  let clientId: string;
  const port = new MemorySupport();
  const sesame = async (env: Record<string, string>, ...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  };
  const alice = () => port.people.find((p) => p.tenantId === tenantId && p.userId === 'user-alice')!;
  beforeAll(async () => {
    h = await startMgmt({}, { support: port });
    tenantId = await h.createTenant('Acme');
    const other = await h.createTenant('Other');
    supportData(port, tenantId, other);
    Object.assign(alice(), {
      createdAt: CREATED,
      lastSignIn: USED,
      phoneMasked: '•••••••••42',
      passkeys: [
        {
          credentialId: 'cred-phone',
          model: 'iCloud Keychain',
          createdAt: CREATED,
          lastUsedAt: USED,
          deviceId: 'device-1',
          deviceName: 'Chrome on macOS',
          suspected: false,
        },
        {
          credentialId: 'cred-key',
          createdAt: CREATED,
          deviceId: 'device-1',
          deviceName: 'Chrome on macOS',
          suspected: true,
        },
      ],
    });
    port.addPerson({
      tenantId,
      userId: 'user-bob',
      email: 'bob@example.com',
      createdAt: USED,
      disabled: true,
      devices: [],
      memberships: [],
    });
    ({ clientId } = await h.createApp<{ clientId: string }>(tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
      registrationRedirectUri: 'https://shop.example/welcome',
    }));
    supportEnv = {
      SESAME_ADMIN_URL: h.url,
      SESAME_ADMIN_TOKEN: await h.adminToken(tenantId, 'support@acme.test', 'support'),
    };
    adminEnv = {
      SESAME_ADMIN_URL: h.url,
      SESAME_ADMIN_TOKEN: await h.adminToken(tenantId, 'admin@acme.test', 'administrator'),
    };
  });
  afterAll(() => h.stop());

  it('user list: a table newest first, a page at a time, the next cursor printed; --json the page', async () => {
    assert.match(usage(), /user list --tenant TENANT_ID \[--limit N\] \[--cursor CURSOR\]/);
    const first = await sesame(supportEnv, 'user', 'list', '--tenant', tenantId, '--limit', '1');
    assert.equal(first.code, 0, first.stderr);
    const lines = first.stdout.split('\n');
    assert.match(lines[0]!, /^EMAIL +USER ID +CREATED +LAST SIGN-IN +STATUS +PASSKEYS$/);
    assert.match(
      lines[1]!,
      new RegExp(`^bob@example.com +user-bob +${localTime(USED)} +never +disabled +0$`),
    );
    assert.equal(lines[2], 'More: --cursor user-bob');
    assert.equal(lines.length, 3);
    const next = await sesame(supportEnv, 'user', 'list', '--tenant', tenantId, '--cursor', 'user-bob');
    const rest = next.stdout.split('\n');
    assert.equal(rest.length, 2, next.stdout);
    assert.match(
      rest[1]!,
      new RegExp(`^alice@example.com +user-alice +${localTime(CREATED)} +${localTime(USED)} +enabled +2$`),
    );
    const json = JSON.parse(
      (await sesame(supportEnv, 'user', 'list', '--tenant', tenantId, '--json')).stdout,
    );
    assert.deepEqual(
      json.people.map((p: { userId: string }) => p.userId),
      ['user-bob', 'user-alice'],
    );
    assert.equal(json.nextCursor, undefined);
    const bad = await sesame(supportEnv, 'user', 'list', '--tenant', tenantId, '--limit', '0');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--limit must be a whole number from 1 to 200/);
  });

  it('user show: created, status, masked phone and each passkey with its model, device and use', async () => {
    const r = await sesame(supportEnv, 'user', 'show', '--tenant', tenantId, '--user', 'user-alice');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.deepEqual(lines.slice(0, 7), [
      'alice@example.com (user-alice)',
      `  created:  ${localTime(CREATED)}`,
      '  status:   enabled',
      '  phone:    •••••••••42',
      '  passkeys:',
      `    cred-phone  iCloud Keychain made on Chrome on macOS, created ${localTime(CREATED)}, last used ${localTime(USED)}`,
      `    cred-key  Passkey made on Chrome on macOS, created ${localTime(CREATED)}, never used (suspected clone)`,
    ]);
    assert.ok(
      lines.includes('    Acme shop (alias alice-1), last sign-in ' + localTime(Date.UTC(2026, 0, 1, 9))),
    );
    const other = await sesame(supportEnv, 'user', 'show', '--tenant', tenantId, '--user', 'user-other');
    assert.equal(other.code, 1);
    assert.match(other.stderr, /user_not_found/);
  });

  it('user add: an Administrator sends the registration link by client id; Support is refused', async () => {
    const refused = await sesame(
      supportEnv,
      ...['user', 'add', '--tenant', tenantId, '--email', 'new@example.com', '--app', clientId],
    );
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /forbidden/);
    const before = h.peers.activationCalls.length;
    const r = await sesame(
      adminEnv,
      ...['user', 'add', '--tenant', tenantId, '--email', 'New@Example.com', '--app', clientId, '--json'],
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual([out.status, out.email, out.sent], ['success', 'new@example.com', true]);
    assert.equal(h.peers.activationCalls.length, before + 1);
    assert.equal(h.peers.activationCalls.at(-1)!.userEmail, 'new@example.com');
    const text = await sesame(
      adminEnv,
      ...['user', 'add', '--tenant', tenantId, '--email', 'b@example.com', '--app', clientId],
    );
    assert.match(text.stdout, /^Sent a registration link to b@example.com, returning to application /);
    const missing = await sesame(adminEnv, 'user', 'add', '--tenant', tenantId, '--email', 'x@example.com');
    assert.equal(missing.code, 2);
  });

  it('user passkey remove: Support removes one passkey; a passkey not theirs is passkey_not_found', async () => {
    const argv = ['user', 'passkey', 'remove', '--tenant', tenantId, '--user', 'user-alice'];
    const r = await sesame(supportEnv, ...argv, '--passkey', 'cred-phone', '--yes');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Removed passkey cred-phone of user-alice');
    assert.deepEqual(
      alice().passkeys!.map((k) => k.credentialId),
      ['cred-key'],
    );
    const again = await sesame(supportEnv, ...argv, '--passkey', 'cred-phone', '--yes');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /passkey_not_found/);
  });

  it('user phone remove: Support is refused, an Administrator removes it, a second time says there is none', async () => {
    const argv = ['user', 'phone', 'remove', '--tenant', tenantId, '--user', 'user-alice', '--yes'];
    const refused = await sesame(supportEnv, ...argv);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /forbidden/);
    assert.equal(alice().phoneMasked, '•••••••••42');
    const r = await sesame(adminEnv, ...argv);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Removed the phone number of user-alice');
    assert.equal(alice().phoneMasked, undefined);
    const again = await sesame(adminEnv, ...argv);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no_phone_number/);
    const shown = await sesame(supportEnv, 'user', 'show', '--tenant', tenantId, '--user', 'user-alice');
    assert.match(shown.stdout, /^ {2}phone: {4}none$/m);
  });
});
