import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { commands } from './commands';
import { recording } from './recording-call';

const command = commands['app dpop']!;

describe('CLI: app dpop', () => {
  it('--require-dpop on PATCHes dpopBoundAccessTokens true and says so', async () => {
    const { calls, call } = recording({ appId: 'a1', dpopBoundAccessTokens: true });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'require-dpop': 'on' });
    assert.deepEqual(calls, [
      ['PATCH', '/api/v1/admin/tenants/t1/applications/a1', { dpopBoundAccessTokens: true }],
    ]);
    assert.deepEqual(out.json, { appId: 'a1', dpopBoundAccessTokens: true });
    assert.deepEqual(out.text, [
      'Application a1 now requires DPoP: /token refuses its requests without a DPoP proof',
    ]);
  });

  it('--require-dpop off PATCHes false; an answer without the field reads as off', async () => {
    const { calls, call } = recording({ appId: 'a1' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'require-dpop': 'off' });
    assert.deepEqual(calls[0]?.[2], { dpopBoundAccessTokens: false });
    assert.deepEqual(out.json, { appId: 'a1', dpopBoundAccessTokens: false });
  });

  it('anything but on or off is a usage error (exit 2) and calls nothing', async () => {
    const { calls, call } = recording({});
    await assert.rejects(
      command.run(call, { tenant: 't1', app: 'a1', 'require-dpop': 'yes' }),
      (err: unknown) => err instanceof CliError && err.exitCode === 2 && /on or off/.test(err.message),
    );
    assert.equal(calls.length, 0);
  });
});
