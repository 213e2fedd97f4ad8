import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { RegistrationFlow } from '../../flow/flow';
import { REGISTRATION_CHECKS, firstUnmet } from './checks';

const flowAt = (step: RegistrationFlow['step']) => ({ journey: 'registration', step }) as RegistrationFlow;

describe('registration checks', () => {
  it('are, in order: phone-verified, passkey-decided', () => {
    assert.deepEqual(
      REGISTRATION_CHECKS.map((check) => check.name),
      ['phone-verified', 'passkey-decided'],
    );
  });

  it('ask for the phone number first, then the passkey, and are all met once complete', () => {
    assert.equal(firstUnmet(flowAt('phone')), 'phone-verified');
    assert.equal(firstUnmet(flowAt('passkey')), 'passkey-decided');
    assert.equal(firstUnmet(flowAt('complete')), undefined);
  });
});
