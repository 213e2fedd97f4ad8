import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { authorizeCiba, cibaForm, createTenantUser, fakeGrants } from '../testing/ciba';
import { startAuth } from '../testing/hosted-test-client';
import { memoryUserStore } from '../users';

/** Issue 26 finding 9: login_hint at /authorize_ciba compared email case-sensitively. */
describe('/authorize_ciba login_hint', () => {
  let auth: Awaited<ReturnType<typeof startAuth>>;
  beforeAll(async () => {
    const userStore = memoryUserStore();
    await createTenantUser(userStore, 'ann@example.com');
    auth = await startAuth({ peers: fakeGrants().peers, userStore });
  });
  afterAll(() => auth.stop());

  it.each(['Ann@Example.com', 'ANN@EXAMPLE.COM', 'email:Ann@example.COM'])(
    'names the same person in any case: %s',
    async (hint) => {
      const res = await authorizeCiba(auth.base, cibaForm({ login_hint: hint }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
    },
  );

  it('still answers unknown_user_id for an address nobody has', async () => {
    const res = await authorizeCiba(auth.base, cibaForm({ login_hint: 'Nobody@Example.com' }));
    assert.equal(res.body.error, 'unknown_user_id');
  });
});
