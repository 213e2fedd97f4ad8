import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { memoryUserStore } from '../users';
import { mailRequester } from './send-requester';

const signedIn = (userId: string, tenantId: string) => ({
  signedIn: { userId, tenantId, method: 'email_otp' as const, authTime: 1 },
});

describe('who asks for a sign-in mail (issue 35: the owner is not locked out by strangers)', () => {
  it("is proven only for a session signed in, in the flow's tenant, as the person whose verified address it is", async () => {
    const users = memoryUserStore();
    await users.users.create({ userId: 'ann', email: 'ann@example.com', createdAt: 1, emailVerifiedAt: 2 });
    await users.users.create({ userId: 'eve', email: 'eve@example.com', createdAt: 1, emailVerifiedAt: 2 });
    await users.users.create({ userId: 'new', email: 'new@example.com', createdAt: 1 });
    const deps = { users };
    assert.deepEqual(await mailRequester(deps, 't1', signedIn('ann', 't1'), 'Ann@Example.com'), {
      tenant: 't1',
      proven: true,
    });
    const strangers = [
      await mailRequester(deps, 't1', undefined, 'ann@example.com'),
      await mailRequester(deps, 't1', {}, 'ann@example.com'),
      await mailRequester(deps, 't1', signedIn('eve', 't1'), 'ann@example.com'),
      await mailRequester(deps, 't1', signedIn('ann', 't2'), 'ann@example.com'),
      await mailRequester(deps, 't1', signedIn('new', 't1'), 'new@example.com'),
      await mailRequester(deps, 't1', signedIn('gone', 't1'), 'ann@example.com'),
    ];
    for (const requester of strangers) assert.notEqual(requester.proven, true);
    assert.ok(strangers.every((r) => r.tenant === 't1'));
  });
});
