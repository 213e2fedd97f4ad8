import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { FlowDevice } from '../flow/flow';
import { computeClaims } from './claims';
import type { SignInRequest } from './request';

const device = (deviceId: string, osType: string): FlowDevice => ({
  deviceId,
  facts: { deviceName: osType, osType, osVersion: '1', browserType: 'Chrome', browserVersion: '131' },
});
const desktop = device('d-desktop', 'Linux');
const phone = device('d-phone', 'Android');
const at = 1_700_000_000_000;
const facts = {
  request: { scope: ['openid'], nonce: 'n' } as unknown as SignInRequest,
  user: { userId: 'u1', email: 'a@example.com', createdAt: at, emailVerifiedAt: at },
  method: 'fido2' as const,
  authTimeMs: at,
  originating: desktop,
  authenticating: phone,
  devices: [],
  confirmedAppCount: 0,
};

describe('the claim set of a desktop-to-mobile sign-in', () => {
  it('puts ts.svc.ama before the phone’s method in amr', () => {
    assert.deepEqual(computeClaims({ ...facts, ama: true }).amr, ['ts.svc.ama', 'ts.svc.mfca']);
    assert.deepEqual(computeClaims({ ...facts, ama: true, method: 'email_otp' }).amr, [
      'ts.svc.ama',
      'ts.svc.email_otp',
    ]);
  });

  it('names the desktop as originating and the phone as authenticating device', () => {
    const { svcInfo } = computeClaims({ ...facts, ama: true });
    assert.deepEqual(
      [svcInfo?.originatingDevice?.osType, svcInfo?.authenticatingDevice?.osType],
      ['Linux', 'Android'],
    );
  });

  it('counts both new devices, and each known one once', () => {
    assert.equal(computeClaims({ ...facts, ama: true }).networkInfo?.deviceCount, 2);
    const known = [desktop, phone].map((d) => ({
      userId: 'u1',
      deviceId: d.deviceId,
      registeredAt: at,
      lastSeenAt: at,
      facts: d.facts,
    }));
    assert.equal(computeClaims({ ...facts, ama: true, devices: known }).networkInfo?.deviceCount, 2);
  });

  it('keeps amr to the one method without ama', () => {
    assert.deepEqual(computeClaims(facts).amr, ['ts.svc.mfca']);
  });
});
