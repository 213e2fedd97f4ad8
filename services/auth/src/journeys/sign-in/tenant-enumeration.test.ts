import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { authorizeCiba, cibaForm, fakeGrants } from '../../testing/ciba';
import { TestBrowser, authorizePath, client, startAuth } from '../../testing/hosted-test-client';
import { memberWithPasskeyElsewhere } from '../../testing/passkey-user';
import { memoryUserStore } from '../../users';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/** A passkey user (an active passkey on another device) who is a member of `tenantId` only. */
const passkeyUser = (auth: Auth, email: string, tenantId: string) =>
  memberWithPasskeyElsewhere(auth, email, { tenantId, appId: `${tenantId}-app` });

/** Types an address on the identify page of the test client's tenant; returns the page that follows. */
async function typeAddress(auth: Auth, email: string) {
  const browser = auth.browser();
  const first = await browser.request(authorizePath({ prompt: 'login' }));
  const csrf = TestBrowser.csrf(first.body);
  const action = TestBrowser.formAction(first.body);
  const sent = await browser.request(action, { form: { csrf, email, passkeyCapable: '1' } });
  assert.equal(sent.status, 303);
  const flow = action.replace(/\/email$/, '');
  const options = await browser.request(`${flow}/passkey/sign-in-options`, { json: { csrf, email } });
  const allowed = (JSON.parse(options.body) as { allowCredentials?: { id: string }[] }).allowCredentials;
  return { page: (await browser.request(sent.location)).body, allowed: (allowed ?? []).map((c) => c.id) };
}

/** Issue 26, finding 7: an address known only to another tenant answers as an unknown one. */
describe('account discovery across tenants', () => {
  let auth: Auth;
  let own: string;
  beforeAll(async () => {
    const grants = fakeGrants();
    auth = await startAuth({ peers: grants.peers, userStore: memoryUserStore() });
    own = await passkeyUser(auth, 'own@example.com', client.tenantId);
    await passkeyUser(auth, 'foreign@example.com', 'tenant-2');
  });
  afterAll(() => auth.stop());

  it('the identify step leads a member with a passkey elsewhere to the phone, and anyone else to the code', async () => {
    const member = await typeAddress(auth, 'own@example.com');
    assert.match(member.page, /data-mobile-link/);
    for (const email of ['foreign@example.com', 'unknown@example.com']) {
      const other = await typeAddress(auth, email);
      assert.doesNotMatch(other.page, /data-mobile-link/, email);
      assert.match(other.page, /Verification code/, email);
    }
  });

  it('passkey sign-in options list credential ids of members only, else none (discoverable)', async () => {
    assert.deepEqual((await typeAddress(auth, 'own@example.com')).allowed, [own]);
    assert.deepEqual((await typeAddress(auth, 'foreign@example.com')).allowed, []);
    assert.deepEqual((await typeAddress(auth, 'unknown@example.com')).allowed, []);
  });

  it('/authorize_ciba answers a user of another tenant exactly as an unknown address', async () => {
    const member = await authorizeCiba(auth.base, cibaForm({ login_hint: 'own@example.com' }));
    assert.equal(member.status, 200, JSON.stringify(member.body));
    const foreignUser = await authorizeCiba(auth.base, cibaForm({ login_hint: 'foreign@example.com' }));
    const unknown = await authorizeCiba(auth.base, cibaForm({ login_hint: 'unknown@example.com' }));
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'unknown_user_id');
    assert.deepEqual([foreignUser.status, foreignUser.body], [unknown.status, unknown.body]);
  });
});
