import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { flowEvent } from '../testing/fixtures';
import { foldFlow } from './fold';

/** Issue 38: the record keeps the typed address of a flow that never named an account. */
describe('fold: the typed address (attemptedEmail)', () => {
  const at = (timestamp: number, extra: Parameters<typeof flowEvent>[0] = {}) =>
    flowEvent({ flowId: 'f', timestamp, ...extra });

  it('a failed flow without an account keeps the address it was typed with, and no user', () => {
    const state = foldFlow(undefined, [
      at(1, { action: 'auth_start_oidc' }),
      at(2, { action: 'desktop_login_page', attemptedEmail: 'ghost@example.com' }),
      at(3, { action: 'email_verification_failure', attemptedEmail: 'ghost@example.com' }),
      at(4, {
        action: 'email_verification_failure',
        attemptedEmail: 'ghost@example.com',
        status: 'failure',
        errorCode: 'auth_failure',
      }),
    ]);
    assert.equal(state?.record.attemptedEmail, 'ghost@example.com');
    assert.equal(state?.record.status, 'failure');
    assert.equal(state?.record.userId, undefined);
    assert.equal(state?.record.email, undefined);
  });

  it('an abandoned flow (typed, then nothing) keeps it too', () => {
    const state = foldFlow(undefined, [
      at(1, { action: 'auth_start_oidc' }),
      at(2, { action: 'desktop_login_page', attemptedEmail: 'left@example.com' }),
    ]);
    assert.equal(state?.record.attemptedEmail, 'left@example.com');
    assert.equal(state?.record.status, undefined, 'incomplete');
  });

  it('the latest typed address wins, whatever the delivery order; an event without one does not clear it', () => {
    const events = [
      at(2, { attemptedEmail: 'typo@example.con' }),
      at(5, { attemptedEmail: 'right@example.com' }),
      at(9, { action: 'auth_complete', status: 'success' }),
    ];
    for (const order of [events, [...events].reverse(), [events[1]!, events[2]!, events[0]!]]) {
      let state = foldFlow(undefined, [order[0]!]);
      for (const e of order.slice(1)) state = foldFlow(state, [e]) ?? state;
      assert.equal(state?.record.attemptedEmail, 'right@example.com');
    }
  });
});
