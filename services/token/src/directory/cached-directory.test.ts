import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { directory } from '@sesame/proto';
import { TestClock } from '../testing/token-harness';
import { cacheDirectory } from './cached-directory';
import type { Client, ClientDirectory } from './directory';

const client: Client = {
  tenantId: 't',
  appId: 'a',
  clientId: 'c',
  appName: 'c',
  type: directory.ClientType.CLIENT_TYPE_CONFIDENTIAL,
  redirectUris: [],
  allowedScopes: [],
  auxLinkPrefix: '',
  registrationRedirectUri: '',
  blockedCountries: [],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: '',
  backchannelLogoutSessionRequired: false,
  firstParty: false,
  tokenEndpointAuthMethod: '',
  jwks: '',
  jwksUri: '',
  requirePushedAuthorizationRequests: false,
  requestObjectSigningAlg: '',
  dpopBoundAccessTokens: false,
  tlsClientAuthSubjectDn: '',
  tlsClientCertificateBoundAccessTokens: false,
  securityProfile: '',
  idTokenSignedResponseAlg: '',
  backchannelAuthenticationRequestSigningAlg: '',
};

function counting(secret: { value: string }) {
  const calls = { authenticateClient: 0, getClient: 0, authenticateApiCredentials: 0 };
  const inner: ClientDirectory = {
    getClient: async () => {
      calls.getClient++;
      return client;
    },
    authenticateClient: async (_id, s) => {
      calls.authenticateClient++;
      return s === secret.value ? client : null;
    },
    authenticateApiCredentials: async (id, s) => {
      calls.authenticateApiCredentials++;
      return s === secret.value ? { tenantId: 't', credentialsId: id } : null;
    },
  };
  return { inner, calls };
}

describe('cacheDirectory', () => {
  it('answers a repeated successful authentication from memory within the TTL, and asks again after it', async () => {
    const clock = new TestClock(0);
    const { inner, calls } = counting({ value: 's' });
    const dir = cacheDirectory(inner, 5000, clock);
    assert.equal(await dir.authenticateClient('c', 's'), client);
    assert.equal(await dir.authenticateClient('c', 's'), client);
    assert.equal(calls.authenticateClient, 1);
    clock.advance(5000);
    await dir.authenticateClient('c', 's');
    assert.equal(calls.authenticateClient, 2);
  });

  it('never caches a failure: a wrong secret goes to the Directory every time', async () => {
    const clock = new TestClock(0);
    const secret = { value: 's' };
    const { inner, calls } = counting(secret);
    const dir = cacheDirectory(inner, 5000, clock);
    assert.equal(await dir.authenticateApiCredentials('id', 'wrong'), null);
    assert.equal(await dir.authenticateApiCredentials('id', 'wrong'), null);
    assert.equal(calls.authenticateApiCredentials, 2);
    assert.ok(await dir.authenticateApiCredentials('id', 's'));
    assert.ok(await dir.authenticateApiCredentials('id', 's'));
    assert.equal(calls.authenticateApiCredentials, 3);
  });

  it('keeps client and API-credential authentications apart even with equal ids and secrets', async () => {
    const { inner, calls } = counting({ value: 's' });
    const dir = cacheDirectory(inner, 5000, new TestClock(0));
    await dir.authenticateClient('x', 's');
    await dir.authenticateApiCredentials('x', 's');
    assert.deepEqual([calls.authenticateClient, calls.authenticateApiCredentials], [1, 1]);
  });

  it('is a pass-through when the TTL is 0', async () => {
    const { inner, calls } = counting({ value: 's' });
    const dir = cacheDirectory(inner, 0, new TestClock(0));
    await dir.getClient('c');
    await dir.getClient('c');
    assert.equal(calls.getClient, 2);
  });
});

describe('cacheDirectory clear()', () => {
  /** A Directory whose answers wait until released, counting the calls that reach it. */
  function held() {
    const releases: Array<() => void> = [];
    const calls = { count: 0 };
    const inner: ClientDirectory = {
      getClient: async () => null,
      authenticateClient: async () => null,
      authenticateApiCredentials: async (id) => {
        calls.count++;
        await new Promise<void>((resolve) => releases.push(resolve));
        return { tenantId: 't', credentialsId: id };
      },
    };
    return { inner, calls, releases };
  }

  it('does not keep an answer that was asked for before clear() (it may predate the revocation)', async () => {
    const { inner, calls, releases } = held();
    const dir = cacheDirectory(inner, 5000, new TestClock(0));
    const before = dir.authenticateApiCredentials('id', 's');
    dir.clear();
    releases.shift()!();
    assert.ok(await before);
    const after = dir.authenticateApiCredentials('id', 's');
    assert.equal(calls.count, 2);
    releases.shift()!();
    assert.ok(await after);
  });

  it('does not share an answer on its way since before clear() with a request made after it', async () => {
    const { inner, calls, releases } = held();
    const dir = cacheDirectory(inner, 5000, new TestClock(0));
    const before = dir.authenticateApiCredentials('id', 's');
    dir.clear();
    const after = dir.authenticateApiCredentials('id', 's');
    assert.equal(calls.count, 2);
    for (const release of releases.splice(0)) release();
    await Promise.all([before, after]);
    await dir.authenticateApiCredentials('id', 's');
    assert.equal(calls.count, 2, 'the answer asked for after clear() is kept');
  });
});
