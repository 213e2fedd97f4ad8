import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { usage } from './cli';
import { commands } from './commands';

const PATH = '/api/v1/admin/tenants/t1/applications/a1';

/** A fake admin API: GET answers `current`, PATCH answers the body it got, as the admin API does. */
function recording(current: Record<string, unknown>) {
  const calls: Array<[string, string, unknown]> = [];
  const call = (async (method: string, path: string, body?: unknown) => {
    calls.push([method, path, body]);
    return method === 'GET' ? { appId: 'a1', ciba: current } : { appId: 'a1', ...(body as object) };
  }) as never;
  return { calls, call };
}

describe('CLI: the CIBA pending poll answer (app ciba, app create --ciba-pending-answer)', () => {
  const ciba = commands['app ciba']!;

  it('--ciba-pending-answer standard PATCHes strictErrors true and keeps mode, endpoint and expiresIn', async () => {
    const current = {
      mode: 'ping',
      notificationEndpoint: 'https://rp.test/ping',
      strictErrors: false,
      expiresIn: 600,
    };
    const { calls, call } = recording(current);
    const out = await ciba.run(call, { tenant: 't1', app: 'a1', 'ciba-pending-answer': 'standard' });
    assert.deepEqual(calls, [
      ['GET', PATH, undefined],
      ['PATCH', PATH, { ciba: { ...current, strictErrors: true } }],
    ]);
    assert.deepEqual(out.json, { appId: 'a1', ciba: { ...current, strictErrors: true } });
    assert.match(out.text.join('\n'), /pending poll answer: +standard \(HTTP 400 authorization_pending/);
  });

  it('--ciba-pending-answer spec sets it back; --ciba-mode poll drops the ping endpoint', async () => {
    const { calls, call } = recording({
      mode: 'ping',
      notificationEndpoint: 'https://rp.test/ping',
      strictErrors: true,
    });
    await ciba.run(call, { tenant: 't1', app: 'a1', 'ciba-pending-answer': 'spec', 'ciba-mode': 'poll' });
    assert.deepEqual(calls[1], ['PATCH', PATH, { ciba: { mode: 'poll', strictErrors: false } }]);
  });

  it('a bad answer or nothing to change is a usage error (exit 2) and calls nothing', async () => {
    const { calls, call } = recording({ mode: 'poll', strictErrors: false });
    for (const o of [{ 'ciba-pending-answer': 'strict' }, {}, { 'ciba-mode': 'push' }]) {
      await assert.rejects(
        ciba.run(call, { tenant: 't1', app: 'a1', ...o }),
        (err: unknown) => err instanceof CliError && err.exitCode === 2,
      );
    }
    assert.deepEqual(calls, []);
  });

  it('app create --ciba-pending-answer standard creates the app with strictErrors', async () => {
    const calls: unknown[] = [];
    const call = (async (_m: string, _p: string, body?: unknown) => {
      calls.push(body);
      return { appId: 'a1', clientId: 'c1', name: 'Bank', clientSecret: 's' };
    }) as never;
    await commands['app create']!.run(call, {
      tenant: 't1',
      name: 'Bank',
      'redirect-uri': ['https://bank.test/cb'],
      'ciba-pending-answer': 'standard',
    });
    assert.deepEqual((calls[0] as { ciba: unknown }).ciba, { mode: 'poll', strictErrors: true });
  });

  it('the help lists both', () => {
    assert.match(
      usage(),
      /app ciba --tenant TENANT_ID --app APP_ID .*\[--ciba-pending-answer spec\|standard\]/,
    );
    assert.match(usage(), /app create .*\[--ciba-pending-answer spec\|standard\]/);
  });
});
