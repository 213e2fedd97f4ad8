import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { OAuthError } from '@sesame/platform';
import { BASIC_CHALLENGE, bearerErrors, oauthErrors } from './errors';

/** Every factory: the code it answers, its HTTP status and the headers it always carries. */
type Special = 'temporarilyUnavailable' | 'invalidToken';
const expected: Record<Exclude<keyof typeof oauthErrors, Special>, [string, number]> = {
  invalidRequest: ['invalid_request', 400],
  invalidClient: ['invalid_client', 401],
  invalidRequestUri: ['invalid_request_uri', 400],
  invalidGrant: ['invalid_grant', 400],
  unauthorizedClient: ['unauthorized_client', 400],
  unsupportedGrantType: ['unsupported_grant_type', 400],
  unsupportedResponseType: ['unsupported_response_type', 400],
  invalidScope: ['invalid_scope', 400],
  accessDenied: ['access_denied', 400],
  authorizationPending: ['authorization_pending', 400],
  slowDown: ['slow_down', 400],
  expiredToken: ['expired_token', 400],
  loginRequired: ['login_required', 400],
  consentRequired: ['consent_required', 400],
  interactionRequired: ['interaction_required', 400],
  invalidRequestObject: ['invalid_request_object', 400],
  requestNotSupported: ['request_not_supported', 400],
  requestUriNotSupported: ['request_uri_not_supported', 400],
  unknownUserId: ['unknown_user_id', 400],
  invalidBindingMessage: ['invalid_binding_message', 400],
  serverError: ['server_error', 500],
};

describe('oauthErrors', () => {
  for (const [name, [code, status]] of Object.entries(expected)) {
    it(`${name}: ${status} {error: ${code}, error_description}`, () => {
      const err = oauthErrors[name as keyof typeof expected]('what went wrong');
      assert.ok(err instanceof OAuthError);
      assert.equal(err.status, status);
      assert.equal(err.code, code);
      assert.deepEqual(err.body(), { error: code, error_description: 'what went wrong' });
      assert.deepEqual(err.headers, code === 'invalid_client' ? BASIC_CHALLENGE : {});
    });
  }

  it('has a test row for every factory but those with their own test below', () => {
    assert.deepEqual(
      Object.keys(oauthErrors).sort(),
      [...Object.keys(expected), 'invalidToken', 'temporarilyUnavailable'].sort(),
    );
  });

  it('invalidClient carries the Basic challenge of RFC 6749 §5.2, each error its own copy', () => {
    const a = oauthErrors.invalidClient('client authentication failed');
    assert.deepEqual(a.headers, { 'WWW-Authenticate': 'Basic realm="sesame"' });
    Object.assign(a.headers, { 'X-Other': '1' });
    assert.deepEqual(oauthErrors.invalidClient('again').headers, {
      'WWW-Authenticate': 'Basic realm="sesame"',
    });
  });

  it('temporarilyUnavailable: 503 with Retry-After in seconds', () => {
    const err = oauthErrors.temporarilyUnavailable('retry later', 2);
    assert.equal(err.status, 503);
    assert.deepEqual(err.body(), { error: 'temporarily_unavailable', error_description: 'retry later' });
    assert.deepEqual(err.headers, { 'Retry-After': '2' });
  });

  it('invalidToken: 401 with a Bearer challenge naming the error (RFC 6750 §3.1), quotes made safe', () => {
    const err = oauthErrors.invalidToken('the "token" is \\ expired');
    assert.equal(err.status, 401);
    assert.deepEqual(err.body(), { error: 'invalid_token', error_description: 'the "token" is \\ expired' });
    assert.deepEqual(err.headers, {
      'WWW-Authenticate': `Bearer realm="sesame", error="invalid_token", error_description="the 'token' is ' expired"`,
    });
  });

  it('invalidToken without a token given: the bare Bearer challenge', () => {
    assert.deepEqual(oauthErrors.invalidToken('a token is required', false).headers, {
      'WWW-Authenticate': 'Bearer realm="sesame"',
    });
  });

  it('bearerErrors.missing: 401 with the bare Bearer challenge and no error code in the body (RFC 6750 §3.1)', () => {
    const err = bearerErrors.missing();
    assert.equal(err.status, 401);
    assert.deepEqual(err.body(), {});
    assert.deepEqual(err.headers, { 'WWW-Authenticate': 'Bearer realm="sesame"' });
  });

  it('bearerErrors.invalidRequest: 400 invalid_request, named in the Bearer challenge too', () => {
    const err = bearerErrors.invalidRequest('the "token" twice');
    assert.equal(err.status, 400);
    assert.deepEqual(err.body(), { error: 'invalid_request', error_description: 'the "token" twice' });
    assert.deepEqual(err.headers, {
      'WWW-Authenticate': `Bearer realm="sesame", error="invalid_request", error_description="the 'token' twice"`,
    });
  });
});
