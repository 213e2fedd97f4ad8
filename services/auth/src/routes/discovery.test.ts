import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  type Listening,
  createHttpApp,
  createLogger,
  createMetrics,
  fastRouteListener,
  listen,
} from '@sesame/platform';
import express from 'express';
import { DISCOVERY_PATH, mountDiscovery } from './discovery';

const expected = {
  issuer: 'https://auth.sesame.test',
  authorization_endpoint: 'https://auth.sesame.test/authorize',
  token_endpoint: 'https://auth.sesame.test/token',
  jwks_uri: 'https://auth.sesame.test/jwks',
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: ['authorization_code', 'client_credentials', 'urn:openid:params:grant-type:ciba'],
  subject_types_supported: ['public'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
  id_token_signing_alg_values_supported: ['RS256'],
  request_object_encryption_alg_values_supported: ['RSA-OAEP-256'],
  request_object_encryption_enc_values_supported: ['A128CBC-HS256', 'A256CBC-HS512', 'A128GCM', 'A256GCM'],
  request_parameter_supported: true,
  request_uri_parameter_supported: false,
  scopes_supported: ['openid', 'email', 'phone', 'svc_network_info'],
  claims_supported: [
    'iss',
    'sub',
    'aud',
    'exp',
    'iat',
    'auth_time',
    'nonce',
    'acr',
    'amr',
    'svc_info',
    'svc_psd2_transaction',
    'svc_approval',
    'svc_alias',
    'email',
    'email_verified',
    'email_last_update',
    'phone_number',
    'phone_number_verified',
    'phone_number_last_update',
    'svc_network_info',
  ],
  acr_values_supported: ['ts.svc.iac.email', 'ts.svc.iac.phone_number'],
  amr_values_supported: ['ts.svc.mfca', 'ts.svc.email_otp', 'ts.svc.email_magic_link'],
  claims_parameter_supported: true,
  display_values_supported: ['page'],
  prompt_values_supported: ['login'],
  backchannel_authentication_endpoint: 'https://auth.sesame.test/authorize_ciba',
  backchannel_token_delivery_modes_supported: ['poll', 'ping'],
  backchannel_user_code_parameter_supported: false,
};

describe('GET /.well-known/openid-configuration', () => {
  let fast: Listening;
  let plain: Listening;
  beforeAll(async () => {
    const app = createHttpApp(createLogger({ service: 'auth', level: 'silent' }));
    const routes = express.Router();
    const route = mountDiscovery(routes, { SESAME_AUTH_URL: 'https://auth.sesame.test' });
    app.use(routes);
    fast = await listen(
      fastRouteListener(app, [{ fastRoutes: [route], metrics: createMetrics('auth') }]),
      0,
      '127.0.0.1',
    );
    plain = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => Promise.all([fast.close(500), plain.close(500)]));

  for (const [how, server] of [
    ['fast path', () => fast],
    ['express route', () => plain],
  ] as const) {
    it(`describes exactly what Sesame supports, with JSON and public caching headers (${how})`, async () => {
      const res = await fetch(`http://127.0.0.1:${server().port}${DISCOVERY_PATH}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
      assert.deepEqual(await res.json(), expected);
    });
  }

  it('builds endpoints without a double slash when the auth URL ends with one', async () => {
    const routes = express.Router();
    const route = mountDiscovery(routes, { SESAME_AUTH_URL: 'https://auth.sesame.test/' });
    const doc = JSON.parse(route.respond().body.toString());
    assert.equal(doc.token_endpoint, 'https://auth.sesame.test/token');
    assert.equal(doc.issuer, 'https://auth.sesame.test/');
  });
});
