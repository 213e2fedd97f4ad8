import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { SignedIn } from './browser-session';
import { MAX_SESSION_CLIENTS, signedInAfter, signedInKeeping } from './sign-in-session';

const ada = { userId: 'u-ada', tenantId: 't1', method: 'email_otp', authTime: 1000 } as const;

describe('signedInAfter: the session sid and the apps it took part in', () => {
  it('starts a random 128-bit sid with the app when nobody was signed in', () => {
    const first = signedInAfter(undefined, ada, 'client-1');
    assert.match(first.sid ?? '', /^[\w-]{22}$/);
    assert.deepEqual(first.clients, ['client-1']);
    assert.notEqual(signedInAfter(undefined, ada, 'client-1').sid, first.sid);
  });

  it('keeps the sid for the same person of the same tenant and adds the app once (last used last)', () => {
    const first = signedInAfter(undefined, ada, 'client-1');
    const second = signedInAfter(first, { ...ada, authTime: 2000 }, 'client-2');
    const third = signedInAfter(second, ada, 'client-1');
    assert.equal(third.sid, first.sid);
    assert.deepEqual(third.clients, ['client-2', 'client-1']);
    assert.equal(second.authTime, 2000);
  });

  it('gives another person, or the same person in another tenant, a new sid and only the new app', () => {
    const first = signedInAfter(undefined, ada, 'client-1');
    for (const next of [
      { ...ada, userId: 'u-bob' },
      { ...ada, tenantId: 't2' },
    ]) {
      const after = signedInAfter(first, next, 'client-3');
      assert.notEqual(after.sid, first.sid);
      assert.deepEqual(after.clients, ['client-3']);
    }
  });

  it('gives a session signed in before sids existed a new one', () => {
    const old: SignedIn = { ...ada, clients: ['client-9'] };
    const after = signedInAfter(old, ada, 'client-1');
    assert.ok(after.sid);
    assert.deepEqual(after.clients, ['client-1']);
  });

  it('names at most MAX_SESSION_CLIENTS apps, the oldest dropping out', () => {
    let s = signedInAfter(undefined, ada, 'c-0');
    for (let i = 1; i <= MAX_SESSION_CLIENTS; i++) s = signedInAfter(s, ada, `c-${i}`);
    assert.equal(s.clients?.length, MAX_SESSION_CLIENTS);
    assert.equal(s.clients?.[0], 'c-1');
    assert.equal(s.clients?.at(-1), `c-${MAX_SESSION_CLIENTS}`);
  });

  it('signedInKeeping (a CIBA or phone sign-in, no code for this browser) keeps sid and apps for the same person only', () => {
    const first = signedInAfter(undefined, ada, 'client-1');
    const kept = signedInKeeping(first, { ...ada, authTime: 3000 });
    assert.deepEqual([kept.sid, kept.clients, kept.authTime], [first.sid, ['client-1'], 3000]);
    const other = signedInKeeping(first, { ...ada, userId: 'u-bob' });
    assert.equal(other.sid, undefined);
    assert.equal(other.clients, undefined);
  });
});
