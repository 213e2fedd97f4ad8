import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { sampleClaims } from '../testing/sample-claims';
import { buildIdTokenClaims } from './claims';

const nowMs = Date.parse('2025-03-15T10:00:00.000Z');
const nowS = nowMs / 1000;
const DAY = 86_400;
const base = { issuer: 'https://auth.sesame.test', clientId: 'client-a', nowMs, ttlS: 600 };

describe('buildIdTokenClaims', () => {
  it('carries every always-present claim of spec 2.2 with its documented type', () => {
    const c = buildIdTokenClaims({ ...base, scope: 'openid', claims: sampleClaims() });
    assert.deepEqual(
      {
        iss: c.iss,
        sub: c.sub,
        aud: c.aud,
        exp: c.exp,
        iat: c.iat,
        auth_time: c.auth_time,
        nonce: c.nonce,
        acr: c.acr,
        amr: c.amr,
      },
      {
        iss: 'https://auth.sesame.test',
        sub: '6f1c2b9e-8a57-4a43-9d3a-2b7f7f7e1a11',
        aud: 'client-a',
        exp: nowS + 600,
        iat: nowS,
        auth_time: 1_742_032_800,
        nonce: 'n-0S6_WzA2Mj',
        acr: 'ts.svc.app_bound_cred ts.svc.iac.email',
        amr: ['ts.svc.mfca'],
      },
    );
    assert.equal(typeof c.aud, 'string');
    assert.equal(typeof c.acr, 'string');
    assert.ok(Array.isArray(c.amr));
  });

  it('always has svc_info with both device objects; browser fields only when relevant; capp_* numbers when known', () => {
    const c = buildIdTokenClaims({ ...base, scope: 'openid', claims: sampleClaims() });
    assert.deepEqual(c.svc_info, {
      originating_device: {
        device_name: 'Apple Macintosh',
        os_type: 'macOS',
        os_version: '14.4',
        browser_type: 'Chrome',
        browser_version: '123.0',
      },
      authenticating_device: { device_name: 'Apple iPhone 15', os_type: 'iOS', os_version: '17.4' },
      capp_last_login: 1_741_000_000,
      capp_first_login: 1_700_000_000,
    });
  });

  it('keeps svc_info with both (empty) device objects even when auth sent none', () => {
    const c = buildIdTokenClaims({ ...base, scope: 'openid', claims: sampleClaims({ svcInfo: undefined }) });
    const empty = { device_name: '', os_type: '', os_version: '' };
    assert.deepEqual(c.svc_info, { originating_device: empty, authenticating_device: empty });
  });

  it('omits every conditional claim when the grant carries none', () => {
    const c = buildIdTokenClaims({
      ...base,
      scope: 'openid email phone svc_network_info',
      claims: sampleClaims(),
    });
    assert.deepEqual(Object.keys(c).sort(), [
      'acr',
      'amr',
      'aud',
      'auth_time',
      'exp',
      'iat',
      'iss',
      'nonce',
      'sub',
      'svc_info',
    ]);
  });

  it('omits nonce when the authentication request carried none', () => {
    const c = buildIdTokenClaims({ ...base, scope: 'openid', claims: sampleClaims({ nonce: '' }) });
    assert.equal('nonce' in c, false);
  });

  it("carries the browser session's sid when auth sent one (Back-Channel Logout), and none otherwise", () => {
    const c = buildIdTokenClaims({ ...base, scope: 'openid', claims: sampleClaims({ sid: 'sid-1' }) });
    assert.equal(c.sid, 'sid-1');
    const none = buildIdTokenClaims({ ...base, scope: 'openid', claims: sampleClaims() });
    assert.equal('sid' in none, false);
  });

  it('passes svc_psd2_transaction, svc_approval and svc_alias through as given', () => {
    const psd2 = {
      display_data: { payee: 'ACME', payment_amount: '€10', payment_method: 'card' },
      additional_data: 7,
    };
    const approval = {
      display_data: { attributes: [{ label: 'a', value: 'b', icon: 'Lock' }] },
      additional_data: {},
    };
    const c = buildIdTokenClaims({
      ...base,
      scope: 'openid',
      claims: sampleClaims({ psd2Transaction: psd2, approval, alias: 'jdoe' }),
    });
    assert.deepEqual(c.svc_psd2_transaction, psd2);
    assert.deepEqual(c.svc_approval, approval);
    assert.equal(c.svc_alias, 'jdoe');
  });

  it('adds email claims (string, boolean, time frame) only when scope email was asked and data exists', () => {
    const claims = sampleClaims({
      email: 'j@example.com',
      emailVerified: true,
      emailUpdatedAt: nowS - 3 * DAY,
    });
    const withScope = buildIdTokenClaims({ ...base, scope: 'openid email', claims });
    assert.equal(withScope.email, 'j@example.com');
    assert.equal(withScope.email_verified, true);
    assert.equal(withScope.email_last_update, 'Last 7 days');
    const withoutScope = buildIdTokenClaims({ ...base, scope: 'openid', claims });
    assert.equal('email' in withoutScope, false);
    assert.equal('email_verified' in withoutScope, false);
  });

  it('adds phone claims only with scope phone; phone_number_verified defaults to false', () => {
    const claims = sampleClaims({ phoneNumber: '+15551234567', phoneNumberUpdatedAt: nowS - 40 * DAY });
    const c = buildIdTokenClaims({ ...base, scope: 'openid phone', claims });
    assert.equal(c.phone_number, '+15551234567');
    assert.equal(c.phone_number_verified, false);
    assert.equal(c.phone_number_last_update, 'Over 28 days ago');
    assert.equal('phone_number' in buildIdTokenClaims({ ...base, scope: 'openid email', claims }), false);
  });

  it('builds svc_network_info with numbers and time-frame strings, only for scope svc_network_info', () => {
    const claims = sampleClaims({
      networkInfo: {
        deviceCount: 3,
        userRegisteredAt: nowS - 100 * DAY,
        authenticatingDeviceRegisteredAt: nowS - 10 * DAY,
        confirmedCappCount: 2,
        userLastSeenAt: nowS - 3600,
        authenticatingDeviceLastSeenAt: nowS - 2 * DAY,
      },
    });
    const c = buildIdTokenClaims({ ...base, scope: 'openid svc_network_info', claims });
    assert.deepEqual(c.svc_network_info, {
      device_count: 3,
      user_registration_time: 'Over 28 days ago',
      authenticating_device_registration_time: 'Last 28 days',
      confirmed_capp_count: 2,
      user_last_seen: 'Last 24 hours',
      authenticating_device_last_seen: 'Last 7 days',
    });
    assert.equal('svc_network_info' in buildIdTokenClaims({ ...base, scope: 'openid', claims }), false);
  });
});
