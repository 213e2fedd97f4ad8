import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { buildHttpApp, listen } from '@sesame/platform';
import { startedForSuite } from '@sesame/testing/suite';
import {
  type TokenHarness,
  clientCredentialsForm,
  postToken,
  startTokenHarness,
} from '../../testing/token-harness';

const assertNoStore = (headers: Headers) => {
  assert.match(headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(headers.get('cache-control'), 'no-store');
  assert.equal(headers.get('pragma'), 'no-cache');
};

describe('POST /token: request checks', () => {
  const h = startedForSuite(startTokenHarness);

  it('refuses a JSON body with 400 invalid_request and the no-store headers', async () => {
    const res = await fetch(`${h.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: 'invalid_request',
      error_description: 'Content-Type must be application/x-www-form-urlencoded',
    });
    assertNoStore(res.headers);
  });

  it('refuses a request without a body or content type: 400 invalid_request', async () => {
    const res = await fetch(`${h.url}/token`, { method: 'POST' });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
    assertNoStore(res.headers);
  });

  it('refuses a missing grant_type: 400 invalid_request', async () => {
    const res = await h.post({ client_id: 'x' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'invalid_request', error_description: 'grant_type is required' });
    assertNoStore(res.headers);
  });

  it('refuses an unknown grant_type: 400 unsupported_grant_type', async () => {
    for (const grantType of [
      'password',
      'urn:ietf:params:oauth:grant-type:device_code',
      'toString',
      '__proto__',
    ]) {
      const res = await h.post({ grant_type: grantType });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'unsupported_grant_type', grantType);
      assertNoStore(res.headers);
    }
  });

  it('refuses a parameter sent twice: 400 invalid_request', async () => {
    const res = await fetch(`${h.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&grant_type=authorization_code',
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: 'invalid_request',
      error_description: 'parameter grant_type is included more than once',
    });
  });

  it('refuses an oversized body with a 4xx invalid_request, never a 500', async () => {
    const res = await fetch(`${h.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&scope=${'a'.repeat(20_000)}`,
    });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
    assertNoStore(res.headers);
  });

  it('answers GET /token with 405 and the no-store headers', async () => {
    const res = await fetch(`${h.url}/token`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assertNoStore(res.headers);
  });

  it('answers the same through the express mount (hosts without raw routes), headers included', async () => {
    h.directory.addApiCredentials('express-cred', 'express-secret');
    const server = await listen(
      buildHttpApp(h.module, () => false),
      0,
      '127.0.0.1',
    );
    try {
      const url = `http://127.0.0.1:${server.port}/token`;
      const ok = await postToken(url, clientCredentialsForm('express-cred', 'express-secret'));
      assert.equal(ok.status, 200);
      assert.equal(ok.body.token_type, 'Bearer');
      assertNoStore(ok.headers);
      const bad = await postToken(url, { grant_type: 'password' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error, 'unsupported_grant_type');
      assertNoStore(bad.headers);
    } finally {
      await server.close(500);
    }
  });
});
