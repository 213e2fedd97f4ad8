import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  MemorySupport,
  type MgmtHarness,
  startMgmt,
  supportData,
} from '@sesame/mgmt-service/testing/support';
import { run, usage } from './cli';
import { localTime, sinceOf, table } from './logs-commands';

/**
 * `logs` against a running mgmt HTTP server in this process with the in-memory support port (the same admin API
 * calls the embedded platform answers once the support port is wired there).
 */
describe('CLI: logs', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let env: Record<string, string>;
  const port = new MemorySupport();
  const sesame = async (...argv: string[]) => {
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
    const token = await h.adminToken(tenantId, 'support@acme.test', 'support');
    env = { SESAME_ADMIN_URL: h.url, SESAME_ADMIN_TOKEN: token };
  });
  afterAll(() => h.stop());

  it('logs --email prints the person’s sign-ins newest first as a table of outcomes in words, local times', async () => {
    const r = await sesame('logs', '--email', 'ALICE@example.com');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], 'Sign-ins of alice@example.com (user-alice), newest first, local time:');
    assert.match(lines[1]!, /^WHEN\s+FLOW\s+APP\s+METHOD\s+STATUS\s+DEVICE\s+LOCATION\s+OUTCOME$/);
    assert.equal(lines.length, 4);
    assert.ok(lines[2]!.startsWith(localTime(Date.UTC(2026, 0, 1, 10))));
    assert.match(
      lines[2]!,
      /flow-bad .*failure .*Berlin, DE\s+Wrong code entered 5 times; the code was invalidated$/,
    );
    assert.match(lines[3]!, /flow-ok .*success .*Signed in with an email code$/);
  });

  it('--status, --alias, --user and --json (ISO times); --since filters by age', async () => {
    const failed = await sesame('logs', '--alias', 'alice-1', '--status', 'failure', '--json');
    assert.equal(failed.code, 0, failed.stderr);
    const body = JSON.parse(failed.stdout) as { userId: string; flows: { id: string; time: string }[] };
    assert.equal(body.userId, 'user-alice');
    assert.deepEqual(
      body.flows.map((f) => [f.id, f.time]),
      [['flow-bad', '2026-01-01T10:00:00.000Z']],
    );
    const byUser = await sesame('logs', '--user', 'user-alice', '--json');
    assert.equal(JSON.parse(byUser.stdout).flows.length, 2);
    const recent = await sesame('logs', '--user', 'user-alice', '--since', '24h');
    assert.equal(recent.code, 0);
    assert.equal(recent.stdout, 'No sign-ins of user-alice (user-alice) match.');
  });

  it('logs show FLOW_ID prints one timeline, each step in words', async () => {
    const r = await sesame('logs', 'show', 'flow-bad');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Sign-in flow-bad: Wrong code entered 5 times; the code was invalidated$/m);
    assert.match(r.stdout, /desktop_login_page\s+Saw the sign-in page \(the email step\)\.\s+203\.0\.113\.7/);
    assert.equal([...r.stdout.matchAll(/Entered a wrong or expired email code\./g)].length, 5);
    const json = JSON.parse((await sesame('logs', 'show', 'flow-bad', '--json')).stdout);
    assert.equal(json.timeline[0].time, '2026-01-01T10:00:00.000Z');
  });

  it('usage mistakes exit 2; another tenant’s flow or nobody found exit 1', async () => {
    assert.equal((await sesame('logs')).code, 2);
    assert.equal((await sesame('logs', '--email', 'a@b.c', '--user', 'u')).code, 2);
    assert.equal((await sesame('logs', '--user', 'u', '--since', 'yesterday')).code, 2);
    assert.equal((await sesame('logs', 'show')).code, 2);
    assert.equal((await sesame('logs', 'show', 'a', 'b')).code, 2);
    const foreign = await sesame('logs', 'show', 'flow-other');
    assert.equal(foreign.code, 1);
    assert.match(foreign.stderr, /flow_not_found/);
    const nobody = await sesame('logs', '--alias', 'nobody');
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /nobody in this tenant has that alias/);
  });

  it('helpers: --since units, aligned tables; the help lists both commands', () => {
    assert.equal(sinceOf('24h', 100_000_000), 100_000_000 - 86_400_000);
    assert.equal(sinceOf('30m', 10_000_000), 10_000_000 - 1_800_000);
    assert.equal(sinceOf(undefined, 1), undefined);
    assert.deepEqual(table(['A', 'BB'], [['xyz', 'q']]), ['A    BB', 'xyz  q']);
    assert.match(usage(), /logs --email ADDRESS \| --user SUB \| --alias ALIAS/);
    assert.match(usage(), /logs show FLOW_ID/);
  });
});
