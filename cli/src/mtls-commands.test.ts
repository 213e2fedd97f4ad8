import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { usage } from './cli';
import { commands } from './commands';
import { mtlsSettingsOf } from './mtls-commands';

const command = commands['app mtls']!;

describe('CLI: app mtls', () => {
  it('PATCHes tls_client_auth with its subject DN and bound tokens, and prints them', async () => {
    const calls: Array<[string, string, unknown]> = [];
    const call = (async (method: string, path: string, body?: unknown) => {
      calls.push([method, path, body]);
      return {
        appId: 'a1',
        tokenEndpointAuthMethod: 'tls_client_auth',
        tlsClientAuthSubjectDn: 'CN=rp,O=Bank',
        tlsClientCertificateBoundAccessTokens: true,
      };
    }) as never;
    const out = await command.run(call, {
      tenant: 't1',
      app: 'a1',
      method: 'tls_client_auth',
      'subject-dn': 'CN=rp,O=Bank',
      'bound-tokens': 'on',
    });
    assert.deepEqual(calls, [
      [
        'PATCH',
        '/api/v1/admin/tenants/t1/applications/a1',
        {
          tokenEndpointAuthMethod: 'tls_client_auth',
          tlsClientAuthSubjectDn: 'CN=rp,O=Bank',
          tlsClientCertificateBoundAccessTokens: true,
        },
      ],
    ]);
    assert.match(out.text.join('\n'), /subject DN: +CN=rp,O=Bank\n.*\n +bound tokens: on/);
  });

  it('reads the self-signed keys from a file, and --method secret clears the mTLS fields', () => {
    const jwks = { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] };
    assert.deepEqual(
      mtlsSettingsOf({ method: 'self_signed_tls_client_auth', 'jwks-file': 'k.json' }, () =>
        JSON.stringify(jwks),
      ),
      { tokenEndpointAuthMethod: 'self_signed_tls_client_auth', jwks },
    );
    assert.deepEqual(mtlsSettingsOf({ method: 'secret' }), {
      tokenEndpointAuthMethod: null,
      tlsClientAuthSubjectDn: null,
      jwks: null,
      jwksUri: null,
    });
  });

  it('refuses an unknown method, a bad on/off, an unreadable key file and an empty change (exit 2)', () => {
    const exit2 = (err: unknown) => err instanceof CliError && err.exitCode === 2;
    assert.throws(() => mtlsSettingsOf({ method: 'client_secret_jwt' }), exit2);
    assert.throws(() => mtlsSettingsOf({ 'bound-tokens': 'yes' }), exit2);
    assert.throws(() => mtlsSettingsOf({ 'jwks-file': 'k.json' }, () => 'not json'), exit2);
    assert.throws(() => mtlsSettingsOf({}), exit2);
  });

  it('is listed in the usage', () => {
    assert.match(usage(), /app mtls --tenant TENANT_ID --app APP_ID/);
  });
});
