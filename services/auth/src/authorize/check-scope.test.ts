import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { assertRedirected, parse, testClient, testDeps } from './authorize-test-support';

const restricted = testDeps({ clients: [testClient({ allowedScopes: ['openid', 'email'] })] });

describe('scope', () => {
  it('puts openid first and keeps each scope once', async () => {
    const { request } = await parse({ scope: 'email  openid phone email svc_network_info' });
    assert.deepEqual(request.scope, ['openid', 'email', 'phone', 'svc_network_info']);
  });

  it('refuses a missing scope with invalid_request', async () => {
    await assertRedirected(parse({ scope: undefined }), 'invalid_request', 'scope is required');
  });

  it('refuses a scope without openid with invalid_scope', async () => {
    await assertRedirected(parse({ scope: 'email' }), 'invalid_scope', 'scope must include openid');
  });

  // Issue 27 changed this deliberately: unknown values were invalid_scope; OIDC Core 3.1.2.1 and RFC 6749 3.3
  // say they are ignored, and the request goes on with what Sesame understands.
  it('ignores an unknown scope value and does not grant it', async () => {
    const { request } = await parse({ scope: 'openid address email made_up' });
    assert.deepEqual(request.scope, ['openid', 'email']);
  });

  it('still refuses a scope of unknown values only, without openid, with invalid_scope', async () => {
    await assertRedirected(parse({ scope: 'address made_up' }), 'invalid_scope', 'scope must include openid');
  });

  it('accepts profile and offline_access, also from a client with a restricted allowedScopes', async () => {
    const { request } = await parse({ scope: 'openid email profile offline_access' }, restricted);
    assert.deepEqual(request.scope, ['openid', 'email', 'profile', 'offline_access']);
  });

  it('refuses a scope the client is not allowed with unauthorized_client', async () => {
    await assertRedirected(
      parse({ scope: 'openid phone' }, restricted),
      'unauthorized_client',
      'scope includes a scope this client is not allowed to request',
    );
  });

  it('accepts the scopes the client is allowed', async () => {
    const { request } = await parse({ scope: 'openid email' }, restricted);
    assert.deepEqual(request.scope, ['openid', 'email']);
  });
});
