import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { usage } from './cli';
import { commands } from './commands';

const command = commands['app signing']!;

function recording(answer: Record<string, unknown>) {
  const calls: Array<[string, string, unknown]> = [];
  const call = (async (method: string, path: string, body?: unknown) => {
    calls.push([method, path, body]);
    return answer;
  }) as never;
  return { calls, call };
}

describe('CLI: app signing --id-token-signed-response-alg', () => {
  it('PATCHes the ID token alg and prints it', async () => {
    const { calls, call } = recording({ appId: 'a1', idTokenSignedResponseAlg: 'ES256' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'id-token-signed-response-alg': 'ES256' });
    assert.deepEqual(calls, [
      ['PATCH', '/api/v1/admin/tenants/t1/applications/a1', { idTokenSignedResponseAlg: 'ES256' }],
    ]);
    assert.deepEqual(out.json, { appId: 'a1', idTokenSignedResponseAlg: 'ES256' });
    assert.match(out.text.join('\n'), /ID tokens: ES256$/);
  });

  it('default clears it (null, RS256); another alg or no flag is a usage error before any call', async () => {
    const { calls, call } = recording({ appId: 'a1' });
    const out = await command.run(call, {
      tenant: 't1',
      app: 'a1',
      'id-token-signed-response-alg': 'default',
    });
    assert.deepEqual(calls[0]?.[2], { idTokenSignedResponseAlg: null });
    assert.match(out.text.join('\n'), /ID tokens: RS256 \(default\)/);
    for (const o of [{ 'id-token-signed-response-alg': 'HS256' }, {}]) {
      const before = calls.length;
      await assert.rejects(command.run(call, { tenant: 't1', app: 'a1', ...o }), (err: unknown) => {
        assert.ok(err instanceof CliError);
        assert.equal(err.exitCode, 2);
        return true;
      });
      assert.equal(calls.length, before);
    }
  });

  it('is listed in the usage', () => {
    assert.match(usage(), /app signing --tenant TENANT_ID --app APP_ID --id-token-signed-response-alg/);
  });
});
