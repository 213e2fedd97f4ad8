import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { TOKEN_ENDPOINT_AUTH_METHODS, isMtlsAuthMethod } from '@sesame/oauth';
import { isOAuthError } from '../../../testing/oauth-error';
import { readClientCredentials } from './read-client-credentials';

const req = (params: Record<string, string>, authorization?: string) => ({
  params,
  authorization,
  clientIp: '192.0.2.1',
});
const b64 = (s: string) => Buffer.from(s).toString('base64');
const rejectsWith = (fn: () => unknown, code: string, status: number) =>
  assert.throws(fn, isOAuthError({ code, status }));

describe('readClientCredentials', () => {
  it('reads client_secret_basic, form-decoding id and secret (RFC 6749 §2.3.1)', () => {
    assert.deepEqual(readClientCredentials(req({}, `Basic ${b64('my%20app:p%3Ass+word')}`)), {
      method: 'client_secret_basic',
      clientId: 'my app',
      clientSecret: 'p:ss word',
    });
  });

  it('reads client_secret_post', () => {
    assert.deepEqual(readClientCredentials(req({ client_id: 'a', client_secret: 's' })), {
      method: 'client_secret_post',
      clientId: 'a',
      clientSecret: 's',
    });
  });

  it('reads a public client (client_id only)', () => {
    assert.deepEqual(readClientCredentials(req({ client_id: 'a' })), { method: 'none', clientId: 'a' });
  });

  it('accepts the same client_id in the body next to Basic', () => {
    assert.equal(
      readClientCredentials(req({ client_id: 'a' }, `Basic ${b64('a:s')}`)).method,
      'client_secret_basic',
    );
  });

  it('refuses Basic plus a body secret (two methods): invalid_request 400', () => {
    rejectsWith(
      () => readClientCredentials(req({ client_secret: 's' }, `Basic ${b64('a:s')}`)),
      'invalid_request',
      400,
    );
  });

  it('refuses a body client_id that differs from the Basic one: invalid_request 400', () => {
    rejectsWith(
      () => readClientCredentials(req({ client_id: 'b' }, `Basic ${b64('a:s')}`)),
      'invalid_request',
      400,
    );
  });

  it('refuses malformed or non-Basic Authorization headers: invalid_client 401', () => {
    for (const header of [
      'Bearer abc',
      'Basic',
      `Basic ${b64('no-colon')}`,
      `Basic ${b64('%E0%A4%A:s')}`,
      `Basic ${b64(':s')}`,
    ]) {
      rejectsWith(() => readClientCredentials(req({}, header)), 'invalid_client', 401);
    }
  });

  it('refuses a request with no client identification: invalid_client 401', () => {
    rejectsWith(() => readClientCredentials(req({})), 'invalid_client', 401);
  });
});

describe('readClientCredentials and discovery', () => {
  // Discovery's token_endpoint_auth_methods_supported is @sesame/oauth's TOKEN_ENDPOINT_AUTH_METHODS.
  const requestUsing: Record<string, ReturnType<typeof req>> = {
    client_secret_basic: req({}, `Basic ${b64('a:s')}`),
    client_secret_post: req({ client_id: 'a', client_secret: 's' }),
    none: req({ client_id: 'a' }),
    // Mutual TLS: client_id in the body, the certificate on the connection (read by authenticateClient).
    tls_client_auth: req({ client_id: 'a' }),
    self_signed_tls_client_auth: req({ client_id: 'a' }),
    private_key_jwt: req({
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      // Read only (sub names the client); the signature is checked by the verifier.
      client_assertion: ['{"alg":"ES256"}', '{"sub":"a"}', 'sig']
        .map((part) => Buffer.from(part).toString('base64url'))
        .join('.'),
    }),
  };

  it('reads every client authentication method discovery advertises', () => {
    for (const method of TOKEN_ENDPOINT_AUTH_METHODS) {
      const request = requestUsing[method];
      assert.ok(request, `a request using ${method}`);
      assert.equal(readClientCredentials(request).method, isMtlsAuthMethod(method) ? 'none' : method);
    }
  });
});
