import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { RegistrationFlow } from '../../flow/flow';
import { REGISTRATION_CHECKS, firstUnmet } from './checks';

const flowAt = (step: RegistrationFlow['step']) => ({ journey: 'registration', step }) as RegistrationFlow;

describe('registration checks', () => {
  it('ask for the phone number first, then the passkey, and are all met once complete', () => {
    assert.deepEqual(
      REGISTRATION_CHECKS.map(({ name }) => name).join(' → '),
      'phone-verified → passkey-decided',
    );
    assert.equal(firstUnmet(flowAt('phone')), 'phone-verified');
    assert.equal(firstUnmet(flowAt('passkey')), 'passkey-decided');
    assert.equal(firstUnmet(flowAt('complete')), undefined);
  });
});
