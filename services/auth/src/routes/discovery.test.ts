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
import { DISCOVERY_PATH, discoveryDocument, mountDiscovery } from './discovery';

const AUTH_URL = 'https://auth.sesame.test';

describe('GET /.well-known/openid-configuration', () => {
  let fast: Listening;
  let plain: Listening;
  beforeAll(async () => {
    const app = createHttpApp(createLogger({ service: 'auth', level: 'silent' }));
    const routes = express.Router();
    const route = mountDiscovery(routes, { SESAME_AUTH_URL: AUTH_URL });
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
    it(`serves the discovery document, with JSON and public caching headers (${how})`, async () => {
      const res = await fetch(`http://127.0.0.1:${server().port}${DISCOVERY_PATH}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
      assert.deepEqual(await res.json(), discoveryDocument(AUTH_URL));
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

// What each list member holds is cross-checked against the checks in discovery-checks.test.ts; this pins the
// rest: the endpoints, the fixed answers, and that no member is missing or added.
describe('discoveryDocument', () => {
  const doc = discoveryDocument(AUTH_URL);

  it('names the endpoints under the auth URL and the issuer as configured', () => {
    assert.equal(doc.issuer, AUTH_URL);
    assert.equal(doc.authorization_endpoint, `${AUTH_URL}/authorize`);
    assert.equal(doc.token_endpoint, `${AUTH_URL}/token`);
    assert.equal(doc.jwks_uri, `${AUTH_URL}/jwks`);
    assert.equal(doc.backchannel_authentication_endpoint, `${AUTH_URL}/authorize_ciba`);
    assert.equal(doc.userinfo_endpoint, `${AUTH_URL}/userinfo`);
    assert.equal(doc.revocation_endpoint, `${AUTH_URL}/revoke`);
    assert.equal(doc.introspection_endpoint, `${AUTH_URL}/introspect`);
  });

  it('says iss is sent on authorization responses (RFC 9207)', () => {
    assert.equal(doc.authorization_response_iss_parameter_supported, true);
  });

  it('states what the spec defaults would claim wrongly, and no user_code', () => {
    assert.equal(doc.request_parameter_supported, true);
    assert.equal(doc.request_uri_parameter_supported, false);
    assert.equal(doc.claims_parameter_supported, true);
    assert.equal(doc.backchannel_user_code_parameter_supported, false);
  });

  it('lists the algs of signed CIBA requests (FAPI-CIBA): RS256, PS256 and ES256, never none', () => {
    assert.deepEqual(doc.backchannel_authentication_request_signing_alg_values_supported, [
      'RS256',
      'PS256',
      'ES256',
    ]);
  });

  it('advertises RP-Initiated and Back-Channel Logout with sid, and no front-channel logout', () => {
    assert.equal(doc.end_session_endpoint, `${AUTH_URL}/logout`);
    assert.equal(doc.backchannel_logout_supported, true);
    assert.equal(doc.backchannel_logout_session_supported, true);
    assert.equal(doc.frontchannel_logout_supported, false);
  });

  it('lists the ID token algs /jwks has keys for: RS256 (the default), PS256 and ES256, in that order', () => {
    assert.deepEqual(doc.id_token_signing_alg_values_supported, ['RS256', 'PS256', 'ES256']);
  });

  it('lists sid in claims_supported, as browser sign-ins put it in the ID token', () => {
    assert.ok((doc.claims_supported as string[]).includes('sid'));
    assert.ok((doc.claims_supported as string[]).includes('email'));
  });

  it('has exactly the OIDC Discovery and CIBA members Sesame answers', () => {
    assert.deepEqual(Object.keys(doc).sort(), [
      'acr_values_supported',
      'amr_values_supported',
      'authorization_endpoint',
      'authorization_response_iss_parameter_supported',
      'backchannel_authentication_endpoint',
      'backchannel_authentication_request_signing_alg_values_supported',
      'backchannel_logout_session_supported',
      'backchannel_logout_supported',
      'backchannel_token_delivery_modes_supported',
      'backchannel_user_code_parameter_supported',
      'claims_parameter_supported',
      'claims_supported',
      'code_challenge_methods_supported',
      'display_values_supported',
      'dpop_signing_alg_values_supported',
      'end_session_endpoint',
      'frontchannel_logout_supported',
      'grant_types_supported',
      'id_token_signing_alg_values_supported',
      'introspection_endpoint',
      'introspection_endpoint_auth_methods_supported',
      'introspection_endpoint_auth_signing_alg_values_supported',
      'issuer',
      'jwks_uri',
      'prompt_values_supported',
      'pushed_authorization_request_endpoint',
      'request_object_encryption_alg_values_supported',
      'request_object_encryption_enc_values_supported',
      'request_object_signing_alg_values_supported',
      'request_parameter_supported',
      'request_uri_parameter_supported',
      'require_pushed_authorization_requests',
      'response_modes_supported',
      'response_types_supported',
      'revocation_endpoint',
      'revocation_endpoint_auth_methods_supported',
      'revocation_endpoint_auth_signing_alg_values_supported',
      'scopes_supported',
      'subject_types_supported',
      'tls_client_certificate_bound_access_tokens',
      'token_endpoint',
      'token_endpoint_auth_methods_supported',
      'token_endpoint_auth_signing_alg_values_supported',
      'userinfo_endpoint',
    ]);
  });
});
