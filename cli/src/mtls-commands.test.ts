import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { CliError } from './admin-client';
import { usage } from './cli';
import { commands } from './commands';
import { clientAuthSettingsOf, mtlsSettingsOf } from './mtls-commands';

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

describe('CLI: app client-auth', () => {
  const clientAuth = commands['app client-auth']!;
  const exit2 = (err: unknown) => err instanceof CliError && err.exitCode === 2;

  it('PATCHes private_key_jwt with the keys read from a file and Require PAR, and prints them', async () => {
    const jwks = { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] };
    const calls: Array<[string, string, unknown]> = [];
    const call = (async (method: string, path: string, body?: unknown) => {
      calls.push([method, path, body]);
      return {
        appId: 'a1',
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks,
        requirePushedAuthorizationRequests: true,
      };
    }) as never;
    const body = clientAuthSettingsOf(
      { method: 'private_key_jwt', 'jwks-file': 'rp-keys.json', 'require-par': 'on' },
      (path) => {
        assert.equal(path, 'rp-keys.json');
        return JSON.stringify(jwks);
      },
    );
    assert.deepEqual(body, {
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks,
      requirePushedAuthorizationRequests: true,
    });
    const out = await clientAuth.run(call, { tenant: 't 1', app: 'a1', method: 'client_secret_post' });
    assert.deepEqual(calls, [
      [
        'PATCH',
        '/api/v1/admin/tenants/t%201/applications/a1',
        { tokenEndpointAuthMethod: 'client_secret_post' },
      ],
    ]);
    assert.equal(out.json.requirePushedAuthorizationRequests, true);
    assert.match(
      out.text.join('\n'),
      /method: +private_key_jwt\n.*\n +keys: +jwks \(by value\)\n.*\n +require PAR: +on/,
    );
  });

  it('sends the method as given, for the admin API to judge; on/off for PAR; nothing given is refused', () => {
    // The admin API knows the methods it takes (and answers which, with 400, for any other): not a second list.
    assert.deepEqual(clientAuthSettingsOf({ method: 'private_key_jwt' }), {
      tokenEndpointAuthMethod: 'private_key_jwt',
    });
    assert.deepEqual(clientAuthSettingsOf({ method: 'none' }), { tokenEndpointAuthMethod: 'none' });
    assert.throws(() => clientAuthSettingsOf({ method: '' }), exit2);
    assert.deepEqual(clientAuthSettingsOf({ 'require-par': 'off' }), {
      requirePushedAuthorizationRequests: false,
    });
    assert.throws(() => clientAuthSettingsOf({ 'require-par': 'yes' }), exit2);
    assert.throws(() => clientAuthSettingsOf({}), exit2);
    // app mtls keeps its own methods: private_key_jwt is client-auth's.
    assert.throws(() => mtlsSettingsOf({ method: 'private_key_jwt' }), exit2);
  });

  it('is listed in the usage', () => {
    assert.match(usage(), /app client-auth --tenant TENANT_ID --app APP_ID/);
  });
});
