import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { usage } from './cli';
import { commands } from './commands';
import { recording } from './recording-call';

const command = commands['app signing']!;

async function refusedBeforeAnyCall(o: Record<string, string>) {
  const { calls, call } = recording({ appId: 'a1' });
  await assert.rejects(command.run(call, { tenant: 't1', app: 'a1', ...o }), (err: unknown) => {
    assert.ok(err instanceof CliError);
    assert.equal(err.exitCode, 2);
    return true;
  });
  assert.equal(calls.length, 0);
}

describe('CLI: app signing', () => {
  it('PATCHes the request object signing alg and prints it', async () => {
    const { calls, call } = recording({ appId: 'a1', requestObjectSigningAlg: 'ES256' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'request-object-signing-alg': 'ES256' });
    assert.deepEqual(calls, [
      ['PATCH', '/api/v1/admin/tenants/t1/applications/a1', { requestObjectSigningAlg: 'ES256' }],
    ]);
    assert.deepEqual(out.json, {
      appId: 'a1',
      requestObjectSigningAlg: 'ES256',
      idTokenSignedResponseAlg: 'RS256',
      backchannelAuthenticationRequestSigningAlg: null,
    });
    assert.match(out.text.join('\n'), /request objects: signed with ES256 only/);
  });

  it('request objects: none clears the rule (null); another alg is a usage error before any call', async () => {
    const { calls, call } = recording({ appId: 'a1' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'request-object-signing-alg': 'none' });
    assert.deepEqual(calls[0]?.[2], { requestObjectSigningAlg: null });
    assert.match(out.text.join('\n'), /request objects: signed, unsigned or encrypted/);
    await refusedBeforeAnyCall({ 'request-object-signing-alg': 'HS256' });
  });

  it('PATCHes the ID token alg and prints it', async () => {
    const { calls, call } = recording({ appId: 'a1', idTokenSignedResponseAlg: 'ES256' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'id-token-signed-response-alg': 'ES256' });
    assert.deepEqual(calls, [
      ['PATCH', '/api/v1/admin/tenants/t1/applications/a1', { idTokenSignedResponseAlg: 'ES256' }],
    ]);
    assert.deepEqual(out.json, {
      appId: 'a1',
      requestObjectSigningAlg: null,
      idTokenSignedResponseAlg: 'ES256',
      backchannelAuthenticationRequestSigningAlg: null,
    });
    assert.match(out.text.join('\n'), /ID tokens: ES256\n/);
  });

  it('ID tokens: default clears it (null, RS256); another alg is a usage error before any call', async () => {
    const { calls, call } = recording({ appId: 'a1' });
    const out = await command.run(call, {
      tenant: 't1',
      app: 'a1',
      'id-token-signed-response-alg': 'default',
    });
    assert.deepEqual(calls[0]?.[2], { idTokenSignedResponseAlg: null });
    assert.match(out.text.join('\n'), /ID tokens: RS256 \(default\)/);
    await refusedBeforeAnyCall({ 'id-token-signed-response-alg': 'HS256' });
  });

  it('both flags go in one PATCH; neither is a usage error before any call', async () => {
    const { calls, call } = recording({ appId: 'a1' });
    await command.run(call, {
      tenant: 't1',
      app: 'a1',
      'request-object-signing-alg': 'PS256',
      'id-token-signed-response-alg': 'PS256',
    });
    assert.deepEqual(calls[0]?.[2], { requestObjectSigningAlg: 'PS256', idTokenSignedResponseAlg: 'PS256' });
    await refusedBeforeAnyCall({});
  });

  it('PATCHes the CIBA request signing alg (FAPI-CIBA); none clears it; another alg is a usage error', async () => {
    const { calls, call } = recording({ appId: 'a1', backchannelAuthenticationRequestSigningAlg: 'PS256' });
    const out = await command.run(call, { tenant: 't1', app: 'a1', 'ciba-request-signing-alg': 'PS256' });
    assert.deepEqual(calls, [
      [
        'PATCH',
        '/api/v1/admin/tenants/t1/applications/a1',
        { backchannelAuthenticationRequestSigningAlg: 'PS256' },
      ],
    ]);
    assert.equal(out.json.backchannelAuthenticationRequestSigningAlg, 'PS256');
    assert.match(out.text.join('\n'), /CIBA requests: signed with PS256 only$/);
    const cleared = recording({ appId: 'a1' });
    const plain = await command.run(cleared.call, {
      tenant: 't1',
      app: 'a1',
      'ciba-request-signing-alg': 'none',
    });
    assert.deepEqual(cleared.calls[0]?.[2], { backchannelAuthenticationRequestSigningAlg: null });
    assert.match(plain.text.join('\n'), /CIBA requests: signed or plain$/);
    await refusedBeforeAnyCall({ 'ciba-request-signing-alg': 'none-at-all' });
    await refusedBeforeAnyCall({ 'ciba-request-signing-alg': 'HS256' });
  });

  it('is listed in the usage with both flags', () => {
    assert.match(usage(), /app signing --tenant TENANT_ID --app APP_ID \[--request-object-signing-alg/);
    assert.match(usage(), /\[--id-token-signed-response-alg RS256\|PS256\|ES256\|default\]/);
  });
});
