import assert from 'node:assert/strict';
import { beforeAll, beforeEach, describe, it } from '@jest/globals';
import { CompactEncrypt, CompactSign, UnsecuredJWT, generateKeyPair, generateSecret } from 'jose';
import { REDIRECT_URI, assertRedirected, assertRefused, testDeps } from './authorize-test-support';
import { parseAuthorizeRequest } from './parse-authorize-request';
import type { RawAuthorizeParams } from './read-params';
import type { AuthorizeDeps } from './types';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let encKey: KeyPair;
let otherKey: KeyPair;
let decrypted: string[];
let deps: AuthorizeDeps;

const text = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const encrypt = (plaintext: unknown, to = encKey.publicKey, enc = 'A256GCM') =>
  new CompactEncrypt(text(plaintext)).setProtectedHeader({ alg: 'RSA-OAEP-256', enc }).encrypt(to);
/** A well-formed compact JWE with this header and junk parts (for algorithms that must never reach decryption). */
const withHeader = (header: Record<string, unknown>) =>
  [Buffer.from(JSON.stringify(header)).toString('base64url'), 'a', 'b', 'c', 'd'].join('.');

const objectParams = {
  client_id: 'client-1',
  redirect_uri: REDIRECT_URI,
  response_type: 'code',
  scope: 'openid email',
  state: 'st-1',
  nonce: 'n-1',
};
const query: RawAuthorizeParams = { client_id: 'client-1', redirect_uri: REDIRECT_URI, state: 'st-1' };
const parse = (params: RawAuthorizeParams) => parseAuthorizeRequest(params, deps);
const refusedObject = (params: RawAuthorizeParams, description: string) =>
  assertRedirected(parse(params), 'invalid_request_object', description);

describe('request object (JWE to the enc key of /jwks)', () => {
  beforeAll(async () => {
    [encKey, otherKey] = await Promise.all([
      generateKeyPair('RSA-OAEP-256'),
      generateKeyPair('RSA-OAEP-256'),
    ]);
  });
  beforeEach(() => {
    decrypted = [];
    deps = testDeps({ key: encKey.privateKey, decrypted });
  });

  for (const enc of ['A128GCM', 'A256GCM', 'A128CBC-HS256', 'A256CBC-HS512']) {
    it(`takes the parameters of a JSON claims set encrypted with RSA-OAEP-256 + ${enc}`, async () => {
      const { request } = await parse({ request: await encrypt(objectParams, encKey.publicKey, enc) });
      assert.deepEqual(request.scope, ['openid', 'email']);
      assert.equal(request.nonce, 'n-1');
      assert.equal(request.clientId, 'client-1');
    });
  }

  it('takes the payload of a nested unsecured JWT (alg none)', async () => {
    const nested = new UnsecuredJWT(objectParams).encode();
    assert.equal((await parse({ request: await encrypt(nested) })).request.nonce, 'n-1');
  });

  it('takes the payload of a nested JWS without verifying it (clients register no keys)', async () => {
    const signer = await generateKeyPair('ES256');
    const nested = await new CompactSign(text(objectParams))
      .setProtectedHeader({ alg: 'ES256' })
      .sign(signer.privateKey);
    assert.equal((await parse({ request: await encrypt(nested) })).request.nonce, 'n-1');
  });

  it('accepts claims as an object and max_age as a number (honoured), and ignores JWT members', async () => {
    const claims = { id_token: { svc_approval: { value: { display_data: { attributes: [] } } } } };
    const payload = { ...objectParams, claims, max_age: 300, iss: 'client-1', aud: 'https://auth', exp: 1 };
    const { request } = await parse({ request: await encrypt(payload) });
    assert.deepEqual(request.claims, { approval: { display_data: { attributes: [] } } });
    assert.equal(request.maxAge, 300);
  });

  it('gives request object parameters precedence over query parameters (OIDC Core 6.3)', async () => {
    const { request } = await parse({
      ...query,
      scope: 'openid phone',
      nonce: 'from-query',
      login_hint: 'ada@example.com',
      request: await encrypt(objectParams),
    });
    assert.deepEqual(request.scope, ['openid', 'email']);
    assert.equal(request.nonce, 'n-1');
    assert.equal(request.loginHint, 'ada@example.com');
  });

  it('uses the request object redirect_uri for the page-or-redirect rule', async () => {
    const payload = { ...objectParams, redirect_uri: 'https://rp.example/other', response_type: 'token' };
    await assertRefused(parse({ ...query, request: await encrypt(payload) }), {
      kind: 'redirect',
      code: 'unsupported_response_type',
      description: 'only response_type code is supported',
      redirectUri: 'https://rp.example/other',
      state: 'st-1',
    });
  });

  it('answers a foreign redirect_uri in the request object with a page', async () => {
    const payload = { ...objectParams, redirect_uri: 'https://evil.example/' };
    await assertRefused(parse({ ...query, request: await encrypt(payload) }), {
      kind: 'page',
      code: 'invalid_request',
      description: 'redirect_uri is not registered for this client',
    });
  });

  it('refuses a client_id that disagrees with the query (invalid_request_object)', async () => {
    await refusedObject(
      { ...query, request: await encrypt({ ...objectParams, client_id: 'client-public' }) },
      'client_id in the request object differs from the client_id parameter',
    );
  });

  it('refuses a response_type that disagrees with the query (invalid_request_object)', async () => {
    await refusedObject(
      {
        ...query,
        response_type: 'code',
        request: await encrypt({ ...objectParams, response_type: 'token' }),
      },
      'response_type in the request object differs from the response_type parameter',
    );
  });

  it('refuses a JWE encrypted to another key (invalid_request_object)', async () => {
    await refusedObject(
      { ...query, request: await encrypt(objectParams, otherKey.publicKey) },
      'request could not be decrypted with the enc key of /jwks',
    );
  });

  it('refuses alg dir and RSA1_5 without asking the key service (invalid_request_object)', async () => {
    const dir = await new CompactEncrypt(text(objectParams))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(await generateSecret('A256GCM'));
    for (const request of [
      dir,
      withHeader({ alg: 'RSA1_5', enc: 'A128CBC-HS256' }),
      withHeader({ alg: 'RSA-OAEP', enc: 'A256GCM' }),
    ]) {
      await refusedObject(
        { ...query, request },
        'request must be encrypted with RSA-OAEP-256 to the enc key of /jwks',
      );
    }
    assert.deepEqual(decrypted, []);
  });

  it('processes an unsecured request object (alg none, OIDC Core 6.1) without asking the key service', async () => {
    const unsecured = new UnsecuredJWT({ ...objectParams, max_age: 60 }).encode();
    const { request } = await parse({ ...query, nonce: 'from-query', request: unsecured });
    assert.equal(request.nonce, 'n-1', 'the request object wins over the query (6.3)');
    assert.deepEqual(request.scope, ['openid', 'email']);
    assert.equal(request.maxAge, 60);
    assert.deepEqual(decrypted, []);
  });

  it('refuses a signed request object of a client without keys, and alg none with a signature (invalid_request_object)', async () => {
    const signer = await generateKeyPair('ES256');
    const jws = await new CompactSign(text(objectParams))
      .setProtectedHeader({ alg: 'ES256' })
      .sign(signer.privateKey);
    await refusedObject(
      { ...query, request: jws },
      'the client has no registered keys (jwks or jwks_uri) to verify the request object',
    );
    const noneSigned = `${new UnsecuredJWT(objectParams).encode()}c2ln`;
    await refusedObject(
      { ...query, request: noneSigned },
      'an unsecured request object (alg none) must have no signature',
    );
    const unsecuredArray = new UnsecuredJWT({})
      .encode()
      .replace(/\.[\w-]*\.$/, `.${Buffer.from('[1]').toString('base64url')}.`);
    await refusedObject({ ...query, request: unsecuredArray }, 'request is not a readable JWT');
    assert.deepEqual(decrypted, []);
  });

  it('refuses garbage in place of a JWE without asking the key service (invalid_request_object)', async () => {
    for (const request of ['garbage', 'a.b.c.d.e.f']) {
      await refusedObject({ ...query, request }, 'request must be a compact JWE (five base64url parts)');
    }
    await refusedObject(
      { ...query, request: 'bm90IGpzb24.a.b.c.d' },
      'request has no readable JWE protected header',
    );
    assert.deepEqual(decrypted, []);
  });

  it('refuses a plaintext that is neither a JSON object nor a JWT (invalid_request_object)', async () => {
    for (const plaintext of ['client_id=client-1', '[1,2]', '{"a":', 'e30.bm90IGpzb24.']) {
      await refusedObject(
        { ...query, request: await encrypt(plaintext) },
        'decrypted request is neither a JSON object nor a JWT',
      );
    }
  });

  it('refuses a member that is not a string, and request or request_uri inside (invalid_request_object)', async () => {
    await refusedObject(
      { ...query, request: await encrypt({ ...objectParams, scope: ['openid'] }) },
      'request object member scope must be a string',
    );
    await refusedObject(
      { ...query, request: await encrypt({ ...objectParams, request_uri: 'https://x/' }) },
      'request object must not contain request_uri',
    );
  });

  it('answers a bad request object with a page when the query names no trusted target', async () => {
    await assertRefused(parse({ request: await encrypt(objectParams, otherKey.publicKey) }), {
      kind: 'page',
      code: 'invalid_request_object',
      description: 'request could not be decrypted with the enc key of /jwks',
    });
  });

  it('propagates a key service outage unchanged (the caller answers server_error)', async () => {
    const down = { ...deps, decryptRequestObject: () => Promise.reject(new Error('keys unavailable')) };
    await assert.rejects(
      parseAuthorizeRequest({ ...query, request: await encrypt(objectParams) }, down),
      /keys unavailable/,
    );
  });

  it('refuses request_uri with request_uri_not_supported: redirect when the query target is valid, else page', async () => {
    const description = 'request_uri is not supported; send the request object in request';
    await assertRedirected(
      parse({ ...query, request_uri: 'https://rp.example/ro' }),
      'request_uri_not_supported',
      description,
    );
    await assertRefused(parse({ request_uri: 'https://rp.example/ro' }), {
      kind: 'page',
      code: 'request_uri_not_supported',
      description,
    });
  });

  it('refuses a repeated request with invalid_request', async () => {
    const jwe = await encrypt(objectParams);
    await assertRedirected(
      parse({ ...query, request: [jwe, jwe] }),
      'invalid_request',
      'request must be a single value',
    );
  });
});
