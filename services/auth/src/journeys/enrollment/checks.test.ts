import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { EnrollmentFlow } from '../../flow/flow';
import { ENROLLMENT_CHECKS, firstUnmet } from './checks';

const flow = (qr?: EnrollmentFlow['qr']) =>
  ({ journey: 'enrollment', ...(qr ? { qr } : {}) }) as EnrollmentFlow;

describe('enrollment checks', () => {
  it('are, in order: passkey-on-phone, passkey-here', () => {
    assert.deepEqual(
      ENROLLMENT_CHECKS.map((check) => check.name),
      ['passkey-on-phone', 'passkey-here'],
    );
  });

  it('show the QR once the person chose a phone, and the passkey page on this device otherwise', () => {
    assert.equal(
      firstUnmet(flow({ linkHash: 'h', openUntil: 1 } as EnrollmentFlow['qr'])),
      'passkey-on-phone',
    );
    assert.equal(firstUnmet(flow()), 'passkey-here');
  });
});
