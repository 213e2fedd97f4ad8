import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { errorOf, startMgmt } from '../../testing/mgmt-harness';

type App = Record<string, unknown> & { appId: string };
const jwk = { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x-coord', y: 'y-coord' };

describe('admin API: private_key_jwt and required PAR of an application', () => {
  const h = startedForSuite(() => startMgmt());
  let base: string;
  beforeAll(async () => {
    base = `/api/v1/admin/tenants/${await h.createTenant('T')}/applications`;
  });

  it('stores the method, the keys and the PAR rule, and shows them', async () => {
    const res = await h.admin('POST', base, {
      name: 'Bank',
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: { keys: [jwk] },
      requirePushedAuthorizationRequests: true,
    });
    assert.equal(res.status, 201);
    const app = (await res.json()) as App;
    assert.equal(app.tokenEndpointAuthMethod, 'private_key_jwt');
    assert.deepEqual(app.jwks, { keys: [jwk] });
    assert.equal(app.requirePushedAuthorizationRequests, true);
    const shown = (await (await h.admin('GET', `${base}/${app.appId}`)).json()) as App;
    assert.deepEqual(shown.jwks, { keys: [jwk] });
  });

  it('refuses private_key_jwt without keys, with both sources, or on a public client, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tokenEndpointAuthMethod: 'private_key_jwt' }, 'jwks'],
      [
        { tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [jwk] }, jwksUri: 'https://b.example/k' },
        'jwksUri',
      ],
      [
        { tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [jwk] }, public: true },
        'tokenEndpointAuthMethod',
      ],
      [{ jwks: { keys: [{ ...jwk, d: 'private' }] } }, 'jwks.keys.0'],
    ];
    for (const [body, field] of cases) {
      const res = await h.admin('POST', base, { name: 'Bad', ...body });
      assert.equal(res.status, 400, JSON.stringify(body));
      const error = await errorOf(res);
      assert.equal(error.code, 'invalid_request');
      assert.ok(error.fields && field in error.fields, `${field} in ${JSON.stringify(error.fields)}`);
    }
  });

  it('switches back to the secret with one PATCH that clears the method and the keys', async () => {
    const created = (await (
      await h.admin('POST', base, {
        name: 'Back',
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [jwk] },
      })
    ).json()) as App;
    const half = await h.admin('PATCH', `${base}/${created.appId}`, { tokenEndpointAuthMethod: null });
    assert.equal(half.status, 400, 'keys without the method are refused');
    const back = await h.admin('PATCH', `${base}/${created.appId}`, {
      tokenEndpointAuthMethod: null,
      jwks: null,
    });
    assert.equal(back.status, 200);
    const app = (await back.json()) as App;
    assert.equal('tokenEndpointAuthMethod' in app, false);
    assert.equal('jwks' in app, false);
  });

  it('stores a required request object signing alg with keys, refuses it without keys or with another alg, and clears it', async () => {
    const res = await h.admin('POST', base, {
      name: 'Jar',
      jwks: { keys: [jwk] },
      requestObjectSigningAlg: 'ES256',
    });
    assert.equal(res.status, 201);
    const app = (await res.json()) as App;
    assert.equal(app.requestObjectSigningAlg, 'ES256');
    assert.equal('tokenEndpointAuthMethod' in app, false, 'keys for JAR alone need no private_key_jwt');
    for (const [body, field] of [
      [{ requestObjectSigningAlg: 'ES256' }, 'requestObjectSigningAlg'],
      [{ requestObjectSigningAlg: 'HS256', jwks: { keys: [jwk] } }, 'requestObjectSigningAlg'],
      [{ requestObjectSigningAlg: 'none', jwks: { keys: [jwk] } }, 'requestObjectSigningAlg'],
    ] as const) {
      const bad = await h.admin('POST', base, { name: 'Bad', ...body });
      assert.equal(bad.status, 400, JSON.stringify(body));
      const error = await errorOf(bad);
      assert.ok(error.fields && field in error.fields, `${field} in ${JSON.stringify(error.fields)}`);
    }
    const keysAlone = await h.admin('PATCH', `${base}/${app.appId}`, { requestObjectSigningAlg: null });
    assert.equal(keysAlone.status, 400, 'keys used by nothing are refused');
    const cleared = await h.admin('PATCH', `${base}/${app.appId}`, {
      requestObjectSigningAlg: null,
      jwks: null,
    });
    assert.equal(cleared.status, 200);
    assert.equal('requestObjectSigningAlg' in ((await cleared.json()) as App), false);
  });
});
