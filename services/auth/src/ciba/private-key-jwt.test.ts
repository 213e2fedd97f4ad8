import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { JWT_BEARER_ASSERTION_TYPE } from '@sesame/oauth';
import type { directory } from '@sesame/proto';
import { type CryptoKey, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { SECRET, authorizeCiba, createTenantUser, fakeGrants, pollClient } from '../testing/ciba';
import { startAuth } from '../testing/hosted-test-client';
import { startedForSuite } from '../testing/suite';
import { memoryUserStore } from '../users';

/** /authorize_ciba with a private_key_jwt client (the Directory's keys by value). */
describe('POST /authorize_ciba with private_key_jwt', () => {
  let keyed: directory.Client;
  let key: CryptoKey;
  const grants = fakeGrants();
  beforeAll(async () => {
    const pair = await generateKeyPair('PS256', { extractable: true });
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1' };
    keyed = {
      ...pollClient,
      clientId: 'ciba-keyed',
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: JSON.stringify({ keys: [jwk] }),
    };
  });
  const auth = startedForSuite(async () => {
    const userStore = memoryUserStore();
    await createTenantUser(userStore, 'ann@example.com');
    return startAuth({
      userStore,
      peers: {
        ...grants.peers,
        getClient: async (id) => (id === keyed.clientId ? keyed : undefined),
        // A Directory that would take the secret: auth must refuse it for a private_key_jwt client anyway.
        authenticateClient: async (id, secret) =>
          id === keyed.clientId && secret === SECRET ? keyed : undefined,
      },
    });
  });

  const assertion = (claims: Record<string, unknown> = {}) =>
    new SignJWT({
      iss: keyed.clientId,
      sub: keyed.clientId,
      aud: 'http://localhost/authorize_ciba',
      exp: Math.floor(Date.now() / 1000) + 60,
      jti: crypto.randomUUID(),
      ...claims,
    })
      .setProtectedHeader({ alg: 'PS256', kid: 'k1' })
      .sign(key);
  const form = async (extra: Record<string, string> = {}) => ({
    client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
    client_assertion: await assertion(),
    scope: 'openid email',
    login_hint: 'ann@example.com',
    channel: JSON.stringify({ type: 'direct_link' }),
    ...extra,
  });

  it('starts a request for a client proven by its assertion (aud: this endpoint)', async () => {
    const res = await authorizeCiba(auth.base, await form());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(grants.requests.get(String(res.body.auth_req_id))?.start.clientId, 'ciba-keyed');
  });

  it('refuses a replayed assertion and an expired one: 401 invalid_client', async () => {
    const once = await form();
    assert.equal((await authorizeCiba(auth.base, once)).status, 200);
    const replay = await authorizeCiba(auth.base, once);
    assert.deepEqual(
      [replay.status, replay.body.error_description],
      [401, 'client_assertion jti has already been used'],
    );
    const expired = await authorizeCiba(
      auth.base,
      await form({ client_assertion: await assertion({ exp: 1 }) }),
    );
    assert.deepEqual([expired.status, expired.body.error], [401, 'invalid_client']);
  });

  it("refuses the client's secret", async () => {
    const res = await authorizeCiba(auth.base, {
      client_id: keyed.clientId,
      client_secret: SECRET,
      scope: 'openid email',
      login_hint: 'ann@example.com',
      channel: JSON.stringify({ type: 'direct_link' }),
    });
    assert.deepEqual([res.status, res.body.error], [401, 'invalid_client']);
  });
});
