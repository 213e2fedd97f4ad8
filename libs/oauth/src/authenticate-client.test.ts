import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { OAuthError } from '@sesame/platform';
import { directory } from '@sesame/proto';
import { type AuthFailurePort, authenticateClient, throttledClientAuth } from './authenticate-client';
import { oauthErrors } from './errors';

/** A throttle that records what happened to each reserved slot, and refuses when told to. */
function recordingThrottle(refuse = false) {
  const events: string[] = [];
  const port: AuthFailurePort = {
    assertAllowed: async (clientId, ip) => {
      events.push(`assert ${clientId} ${ip}`);
      if (refuse) throw new OAuthError('temporarily_unavailable', 'too many', 429);
    },
    reserve: async (clientId, ip) => {
      events.push(`reserve ${clientId} ${ip}`);
      return {
        succeeded: async () => void events.push('succeeded'),
        failed: async () => void events.push('failed'),
      };
    },
  };
  return { events, port };
}

const codeOf = (err: unknown) => (err instanceof OAuthError ? err.code : String(err));

describe('throttledClientAuth', () => {
  it('checks the caller is allowed, reserves before the Directory call and gives the slot back on success', async () => {
    const { events, port } = recordingThrottle();
    const result = await throttledClientAuth(port, 'app', '192.0.2.1', async (beforeDirectoryCall) => {
      await beforeDirectoryCall();
      return 'client';
    });
    assert.equal(result, 'client');
    assert.deepEqual(events, ['assert app 192.0.2.1', 'reserve app 192.0.2.1', 'succeeded']);
  });

  it('keeps the slot as a failure when the authentication ends in invalid_client', async () => {
    const { events, port } = recordingThrottle();
    const err = await throttledClientAuth(port, 'app', 'ip', async (beforeDirectoryCall) => {
      await beforeDirectoryCall();
      throw oauthErrors.invalidClient('client authentication failed');
    }).catch((e: unknown) => e);
    assert.equal(codeOf(err), 'invalid_client');
    assert.deepEqual(events, ['assert app ip', 'reserve app ip', 'failed']);
  });

  it('gives the slot back when the Directory fails or another error ends it', async () => {
    for (const thrown of [new Error('directory unreachable'), oauthErrors.unauthorizedClient('no')]) {
      const { events, port } = recordingThrottle();
      const err = await throttledClientAuth(port, 'app', 'ip', async (beforeDirectoryCall) => {
        await beforeDirectoryCall();
        throw thrown;
      }).catch((e: unknown) => e);
      assert.equal(err, thrown);
      assert.deepEqual(events, ['assert app ip', 'reserve app ip', 'succeeded']);
    }
  });

  it('takes no slot when the answer needs no Directory call (a cache)', async () => {
    const { events, port } = recordingThrottle();
    await throttledClientAuth(port, 'app', 'ip', async () => 'cached');
    await throttledClientAuth(port, 'app', 'ip', async () => {
      throw oauthErrors.invalidClient('client authentication failed');
    }).catch(() => undefined);
    assert.deepEqual(events, ['assert app ip', 'assert app ip']);
  });

  it('refuses a throttled caller before anything is asked', async () => {
    const { events, port } = recordingThrottle(true);
    let asked = false;
    const err = await throttledClientAuth(port, 'app', 'ip', async () => {
      asked = true;
    }).catch((e: unknown) => e);
    assert.equal(err instanceof OAuthError && err.status, 429);
    assert.equal(asked, false);
    assert.deepEqual(events, ['assert app ip']);
  });
});

describe('authenticateClient', () => {
  const confidential = { clientId: 'conf', type: directory.ClientType.CLIENT_TYPE_CONFIDENTIAL };
  const publicClient = { clientId: 'pub', type: directory.ClientType.CLIENT_TYPE_PUBLIC };
  const lookup = {
    getClient: async (id: string) => [confidential, publicClient].find((c) => c.clientId === id) ?? null,
    authenticateClient: async (id: string, secret: string) =>
      id === 'conf' && secret === 'right' ? confidential : undefined,
  };
  const secret = (clientId: string, clientSecret: string) =>
    ({ method: 'client_secret_post', clientId, clientSecret }) as const;
  const none = (clientId: string) => ({ method: 'none', clientId }) as const;
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (err: unknown) =>
        err instanceof OAuthError ? `${err.code} ${err.status} ${err.description}` : String(err),
    );

  it('authenticates a secret through the Directory', async () => {
    assert.equal(
      await authenticateClient(lookup, secret('conf', 'right'), { allowPublic: false }),
      confidential,
    );
  });

  it('answers a wrong secret, an unknown client and a confidential client without its secret alike', async () => {
    for (const attempt of [
      authenticateClient(lookup, secret('conf', 'wrong'), { allowPublic: true }),
      authenticateClient(lookup, none('nobody'), { allowPublic: true }),
      authenticateClient(lookup, none('conf'), { allowPublic: true }),
    ]) {
      assert.equal(await refusal(attempt), 'invalid_client 401 client authentication failed');
    }
  });

  it('lets a confidential client without its secret through only where allowSecretless (PKCE)', async () => {
    assert.equal(
      await authenticateClient(lookup, none('conf'), { allowPublic: false, allowSecretless: true }),
      confidential,
    );
  });

  it('lets a public client through where allowPublic, else unauthorized_client', async () => {
    assert.equal(await authenticateClient(lookup, none('pub'), { allowPublic: true }), publicClient);
    assert.equal(
      await refusal(authenticateClient(lookup, none('pub'), { allowPublic: false })),
      'unauthorized_client 400 a public client may not use this grant type',
    );
  });
});
