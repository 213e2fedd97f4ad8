import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { OAuthError } from '@sesame/platform';
import { directory } from '@sesame/proto';
import { UnsecuredJWT } from 'jose';
import { authenticateClient } from './authenticate-client';
import type { ClientAssertionVerifier } from './client-assertion';
import { readClientCredentials } from './client-credentials';
import { JWT_BEARER_ASSERTION_TYPE } from './vocabulary';

const assertionFor = (sub: string) => new UnsecuredJWT({ sub, iss: sub }).encode();
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof OAuthError);
    return { code: err.code, status: err.status, description: err.description };
  }
  assert.fail('expected an OAuthError');
};

describe('readClientCredentials with a client_assertion (RFC 7521 §4.2)', () => {
  const body = { client_assertion: assertionFor('app-1'), client_assertion_type: JWT_BEARER_ASSERTION_TYPE };

  it('reads private_key_jwt with the client from the assertion sub, with or without client_id', () => {
    for (const extra of [{}, { client_id: 'app-1' }]) {
      const credentials = readClientCredentials(undefined, { ...body, ...extra }, { allowNone: false });
      // The payload, decoded once here, goes on to the verifier (which checks the signature first).
      assert.deepEqual(credentials, {
        method: 'private_key_jwt',
        clientId: 'app-1',
        assertion: body.client_assertion,
        decoded: { segment: body.client_assertion.split('.')[1], claims: { sub: 'app-1', iss: 'app-1' } },
      });
    }
  });

  it('refuses a client_id other than the assertion sub: invalid_client', () => {
    const err = errorOf(() =>
      readClientCredentials(undefined, { ...body, client_id: 'app-2' }, { allowNone: true }),
    );
    assert.deepEqual(err, {
      code: 'invalid_client',
      status: 401,
      description: 'client_assertion sub must be the client_id',
    });
  });

  it('refuses a second method beside it (Basic or a secret): invalid_request', () => {
    const basic = `Basic ${Buffer.from('app-1:s').toString('base64')}`;
    for (const [auth, extra] of [
      [basic, {}],
      [undefined, { client_secret: 's' }],
    ] as const) {
      const err = errorOf(() => readClientCredentials(auth, { ...body, ...extra }, { allowNone: true }));
      assert.deepEqual(err, {
        code: 'invalid_request',
        status: 400,
        description: 'client authenticated with more than one method',
      });
    }
  });

  it('refuses a missing or other client_assertion_type, and an assertion that is no JWT', () => {
    const noType = errorOf(() =>
      readClientCredentials(undefined, { client_assertion: body.client_assertion }, { allowNone: true }),
    );
    assert.equal(noType.code, 'invalid_request');
    assert.equal(noType.description, `client_assertion_type must be ${JWT_BEARER_ASSERTION_TYPE}`);
    const [header, payload] = body.client_assertion.split('.') as [string, string];
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const assertion of [
      'not-a-jwt',
      `${header}.${payload}`,
      `${header}.${payload}.sig.extra`,
      `${header}..sig`,
      `${header}.${b64('[1,2]')}.sig`,
      `${header}.${b64('{"sub":')}.sig`,
      `${header}.${Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]).toString('base64url')}.sig`,
    ]) {
      const bad = errorOf(() =>
        readClientCredentials(undefined, { ...body, client_assertion: assertion }, { allowNone: true }),
      );
      assert.deepEqual(
        bad,
        { code: 'invalid_client', status: 401, description: 'client_assertion is not a valid JWT' },
        assertion,
      );
    }
    for (const claims of ['{}', '{"sub":""}', '{"sub":7}']) {
      const noSub = errorOf(() =>
        readClientCredentials(
          undefined,
          { ...body, client_assertion: `${header}.${b64(claims)}.sig` },
          { allowNone: true },
        ),
      );
      assert.equal(noSub.description, 'client_assertion must carry sub', claims);
    }
  });
});

describe('authenticateClient and private_key_jwt apps', () => {
  const keyed = {
    type: directory.ClientType.CLIENT_TYPE_CONFIDENTIAL,
    tokenEndpointAuthMethod: 'private_key_jwt',
    jwks: '{"keys":[]}',
    jwksUri: '',
  };
  const secretApp = {
    type: directory.ClientType.CLIENT_TYPE_CONFIDENTIAL,
    tokenEndpointAuthMethod: '',
    jwks: '',
    jwksUri: '',
  };
  const verified: string[] = [];
  const assertions: ClientAssertionVerifier = {
    verify: async (client, assertion, endpointUrl) =>
      void verified.push(`${client.clientId} ${assertion} ${endpointUrl}`),
  };
  const lookup = (client: typeof keyed | typeof secretApp) => ({
    getClient: async () => client,
    // A Directory that (wrongly) accepted the secret: the library still refuses it for a private_key_jwt app.
    authenticateClient: async () => client,
  });
  const code = async (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err: OAuthError) => `${err.code}: ${err.description}`,
    );

  it('verifies the assertion of an app registered for private_key_jwt, with the endpoint URL', async () => {
    const credentials = { method: 'private_key_jwt', clientId: 'app-1', assertion: 'jwt' } as const;
    const client = await authenticateClient(lookup(keyed), credentials, {
      allowPublic: false,
      assertions,
      endpointUrl: 'https://op/par',
    });
    assert.equal(client, keyed);
    assert.deepEqual(verified, ['app-1 jwt https://op/par']);
  });

  it('refuses its secret, even when the Directory answered it', async () => {
    const credentials = { method: 'client_secret_post', clientId: 'app-1', clientSecret: 's' } as const;
    assert.equal(
      await code(authenticateClient(lookup(keyed), credentials, { allowPublic: true, assertions })),
      'invalid_client: client authentication failed',
    );
  });

  it('refuses it with no credentials at all, even where PKCE may stand for a secret', async () => {
    const credentials = { method: 'none', clientId: 'app-1' } as const;
    const options = { allowPublic: true, allowSecretless: true, assertions };
    assert.equal(
      await code(authenticateClient(lookup(keyed), credentials, options)),
      'invalid_client: client authentication failed',
    );
  });

  it('refuses an assertion from an app not registered for private_key_jwt', async () => {
    const credentials = { method: 'private_key_jwt', clientId: 'app-2', assertion: 'jwt' } as const;
    assert.equal(
      await code(authenticateClient(lookup(secretApp), credentials, { allowPublic: false, assertions })),
      'invalid_client: the client is not registered for private_key_jwt',
    );
  });
});
