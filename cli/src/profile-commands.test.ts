import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { commands } from './commands';
import { recording } from './recording-call';

const command = commands['app profile']!;

describe('CLI: app profile', () => {
  it('--security-profile fapi2 PATCHes securityProfile fapi2 and says so', async () => {
    const { calls, call } = recording({ appId: 'a1', securityProfile: 'fapi2' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'security-profile': 'fapi2' });
    assert.deepEqual(calls, [
      ['PATCH', '/api/v1/admin/tenants/t1/applications/a1', { securityProfile: 'fapi2' }],
    ]);
    assert.deepEqual(out.json, { appId: 'a1', securityProfile: 'fapi2' });
    assert.deepEqual(out.text, [
      'Application a1 now follows the FAPI 2.0 profile: PAR, PKCE S256 and sender-constrained tokens required',
    ]);
  });

  it('--security-profile none PATCHes null; the answer without the field reads as none', async () => {
    const { calls, call } = recording({ appId: 'a1' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'security-profile': 'none' });
    assert.deepEqual(calls[0]?.[2], { securityProfile: null });
    assert.deepEqual(out.json, { appId: 'a1', securityProfile: null });
    assert.deepEqual(out.text, ['Application a1 follows no security profile']);
  });

  it('anything else is a usage error (exit 2) and calls nothing', async () => {
    const { calls, call } = recording({});
    await assert.rejects(
      command.run(call, { tenant: 't1', app: 'a1', 'security-profile': 'fapi1' }),
      (err: unknown) => err instanceof CliError && err.exitCode === 2 && /fapi2 or none/.test(err.message),
    );
    assert.equal(calls.length, 0);
  });
});
