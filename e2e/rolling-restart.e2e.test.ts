import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { realServers } from '@sesame/testing';
import { type RunningProcess, startSixProcesses, terminate, waitReady } from './processes';
import { roundRobinProxy } from './round-robin-proxy';

jest.setTimeout(300_000);

/**
 * A rolling restart of token under load: two token processes behind a round-robin proxy that follows
 * /readyz (as a Service follows readiness); one is stopped (SIGTERM) and replaced while load runs.
 */
describe('rolling restart of token under load', () => {
  let six: Awaited<ReturnType<typeof startSixProcesses>>;
  const extra: RunningProcess[] = [];
  const env = { SHUTDOWN_DELAY_MS: '1500', READINESS_INTERVAL_MS: '200' };

  beforeAll(async () => {
    six = await startSixProcesses(realServers(), env);
    await Promise.all(six.processes.map((p) => waitReady(p)));
  });
  afterAll(async () => {
    await Promise.all([...six.processes, ...extra].map((p) => terminate(p)));
  });

  it('shows 0 refused and 0 failed requests', async () => {
    const mgmt = six.processes.find((p) => p.name === 'mgmt')!;
    const admin = (path: string, body: unknown) =>
      fetch(`http://127.0.0.1:${mgmt.httpPort}/api/v1/admin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${six.adminKey}` },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, string>>);
    const { tenantId } = await admin('/tenants', { name: 'e2e rolling restart' });
    const { credentialsId, apiSecret } = await admin(`/tenants/${tenantId}/credentials`, {});
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentialsId!,
      client_secret: apiSecret!,
      scope: 'svc_admin_api',
    });

    const first = six.processes.find((p) => p.name === 'token')!;
    const second = await six.startAnother('token', env);
    extra.push(second);
    await waitReady(second);
    const proxy = await roundRobinProxy();
    proxy.add(first.httpPort);
    proxy.add(second.httpPort);
    await new Promise((r) => setTimeout(r, 300));

    let running = true;
    const counts = { ok: 0, refused: 0, failed: [] as number[] };
    const worker = async () => {
      while (running) {
        try {
          const res = await fetch(`http://127.0.0.1:${proxy.port}/token`, { method: 'POST', body: form });
          await res.arrayBuffer();
          if (res.status === 200) counts.ok++;
          else counts.failed.push(res.status);
        } catch {
          counts.refused++;
        }
      }
    };
    const load = Promise.all([worker(), worker(), worker(), worker()]);
    await new Promise((r) => setTimeout(r, 1000));
    // The rolling step: the old process goes, a new one takes its place.
    const exit = await terminate(first);
    proxy.remove(first.httpPort);
    const replacement = await six.startAnother('token', env);
    extra.push(replacement);
    await waitReady(replacement);
    proxy.add(replacement.httpPort);
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await load;
    await proxy.close();
    assert.equal(exit, 0);
    assert.equal(counts.refused, 0, 'refused');
    // On failure, what the token processes logged says why (a peer or store they could not reach, …).
    const tokenLogs = () =>
      [first, second, replacement]
        .map((p) => `--- token :${p.httpPort}\n${p.output.join('').slice(-3000)}`)
        .join('\n');
    assert.deepEqual(
      counts.failed,
      [],
      `failed (statuses; ${counts.ok} ok)\n${counts.failed.length ? tokenLogs() : ''}`,
    );
    assert.ok(counts.ok > 50, `only ${counts.ok} requests under load`);
  });
});
