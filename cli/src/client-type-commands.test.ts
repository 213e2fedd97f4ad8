import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { usage } from './cli';
import { commands } from './commands';
import { recording } from './recording-call';

const command = commands['app client-type']!;

describe('CLI: app client-type', () => {
  it('--client-type public PATCHes {public: true} and prints no secret', async () => {
    const { calls, call } = recording({ appId: 'a1', public: true });
    const out = await command.run(call, { tenant: 't/1', app: 'a1', 'client-type': 'public' });
    assert.deepEqual(calls, [['PATCH', '/api/v1/admin/tenants/t%2F1/applications/a1', { public: true }]]);
    assert.deepEqual(out.json, { appId: 'a1', clientType: 'public' });
    assert.match(out.text.join('\n'), /is public/);
  });

  it('--client-type confidential PATCHes {public: false} and prints the new secret once', async () => {
    const { calls, call } = recording({ appId: 'a1', public: false, clientSecret: 'new-secret' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'client-type': 'confidential' });
    assert.deepEqual(calls, [['PATCH', '/api/v1/admin/tenants/t1/applications/a1', { public: false }]]);
    assert.deepEqual(out.json, { appId: 'a1', clientType: 'confidential', clientSecret: 'new-secret' });
    assert.match(out.text.join('\n'), /clientSecret: new-secret/);
  });

  it('any other type is a usage error (exit 2) and calls nothing', async () => {
    const { calls, call } = recording({});
    await assert.rejects(
      command.run(call, { tenant: 't1', app: 'a1', 'client-type': 'secret' }),
      (err: unknown) =>
        err instanceof CliError && err.exitCode === 2 && /public or confidential/.test(err.message),
    );
    assert.deepEqual(calls, []);
  });

  it('the help lists it', () => {
    assert.match(
      usage(),
      /app client-type --tenant TENANT_ID --app APP_ID --client-type public\|confidential/,
    );
  });
});
