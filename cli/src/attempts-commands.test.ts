import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  MemorySupport,
  type MgmtHarness,
  flowOf,
  startMgmt,
  supportData,
} from '@sesame/mgmt-service/testing/support';
import { run, usage } from './cli';

/** Issue 38: `logs --email` of an address with no account, and `attempts erase`, against a running mgmt. */
describe('CLI: attempts of an address with no account', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let supportEnv: Record<string, string>;
  let adminEnv: Record<string, string>;
  const port = new MemorySupport();
  const sesame = async (env: Record<string, string>, ...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  };
  beforeAll(async () => {
    h = await startMgmt({}, { support: port });
    tenantId = await h.createTenant('Acme');
    const other = await h.createTenant('Other');
    supportData(port, tenantId, other);
    const failed = ['auth_start_oidc', 'desktop_login_page', 'email_verification_failure'];
    port.addFlow(
      flowOf(tenantId, 'ghost-1', Date.UTC(2026, 0, 2, 9), failed, {
        attemptedEmail: 'ghost@example.com',
        status: 'failure',
      }),
    );
    port.addFlow(
      flowOf(other, 'ghost-x', Date.UTC(2026, 0, 2, 9), failed, { attemptedEmail: 'ghost@example.com' }),
    );
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

  it('logs --email of an address nobody has lists the sign-ins it was typed in, in this tenant', async () => {
    const r = await sesame(supportEnv, 'logs', '--email', 'Ghost@Example.com');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(
      lines[0],
      'No account has ghost@example.com; sign-in attempts with it, newest first, local time:',
    );
    assert.equal(lines.length, 3);
    assert.match(lines[2]!, /ghost-1 .*failure/);
    const json = JSON.parse(
      (await sesame(supportEnv, 'logs', '--email', 'ghost@example.com', '--json')).stdout,
    );
    assert.deepEqual(
      [json.account, json.email, json.flows.map((f: { id: string }) => f.id)],
      [false, 'ghost@example.com', ['ghost-1']],
    );
    const none = await sesame(supportEnv, 'logs', '--email', 'nobody@example.com');
    assert.equal(none.code, 0);
    assert.equal(none.stdout, 'No account has nobody@example.com, and no sign-in attempt with it matches.');
  });

  it('attempts erase: Support is refused, an Administrator erases them; usage mistakes exit 2', async () => {
    assert.match(usage(), /attempts erase --email ADDRESS/);
    assert.equal((await sesame(adminEnv, 'attempts', 'erase', '--yes')).code, 2);
    // Destructive: without a terminal it refuses unless --yes, before sending anything.
    const unasked = await sesame(adminEnv, 'attempts', 'erase', '--email', 'ghost@example.com');
    assert.equal(unasked.code, 2);
    assert.match(unasked.stderr, /for good.*pass --yes to go ahead/);
    assert.equal(port.flows.filter((f) => f.attemptedEmail === 'ghost@example.com').length, 2);
    const refused = await sesame(supportEnv, 'attempts', 'erase', '--email', 'ghost@example.com', '--yes');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /forbidden/);
    const r = await sesame(adminEnv, 'attempts', 'erase', '--email', 'ghost@example.com', '-y');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Erased 1 sign-in record of ghost@example.com.');
    assert.deepEqual(
      port.flows.filter((f) => f.attemptedEmail === 'ghost@example.com').map((f) => f.id),
      ['ghost-x'],
    );
    const bad = await sesame(adminEnv, 'attempts', 'erase', '--email', 'not-an-address', '--yes');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /invalid_request|email/);
  });
});
