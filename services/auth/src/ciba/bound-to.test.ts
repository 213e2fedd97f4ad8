import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { grants as g } from '@sesame/proto';
import { authorizeCiba, cibaForm, createTenantUser, fakeGrants, pollClient } from '../testing/ciba';
import { TestBrowser, startAuth } from '../testing/hosted-test-client';
import { memoryUserStore } from '../users';
import { confirmMembership } from '../users/confirm-login';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/** bound_to on /authorize_ciba: the CIBA link's sign-in shares the completion path, so the same rule holds. */
describe('CIBA with bound_to', () => {
  let auth: Auth;
  let grants: ReturnType<typeof fakeGrants>;
  const logins: (g.LoginRef | undefined)[] = [];
  const userId = crypto.randomUUID();
  beforeAll(async () => {
    grants = fakeGrants();
    const complete = grants.peers.completeBackchannel!;
    grants.peers.completeBackchannel = async (id, claims, login) => {
      logins.push(login);
      return complete(id, claims, login);
    };
    const userStore = memoryUserStore();
    await createTenantUser(userStore, 'ann@example.com', userId);
    auth = await startAuth({ peers: grants.peers, userStore });
  });
  afterAll(() => auth.stop());

  /** A CIBA request for ann taken on `phone`: email code, then the consent page's Approve (or the refusal). */
  async function approveOn(phone: TestBrowser, extra: Record<string, string> = {}) {
    const started = await authorizeCiba(auth.base, cibaForm({ login_hint: 'ann@example.com', ...extra }));
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const authReqId = String(started.body.auth_req_id);
    const link = new URL(String(started.body.link)).pathname;
    const first = await phone.request(link);
    const taken = await phone.request(link, { form: { csrf: TestBrowser.csrf(first.body) } });
    const identify = await phone.request(taken.location);
    const csrf = TestBrowser.csrf(identify.body);
    const sent = await phone.request(TestBrowser.formAction(identify.body), {
      form: { csrf, email: 'ann@example.com' },
    });
    const code = await phone.request(`${sent.location}/code`, {
      form: { csrf, code: auth.codeFor('ann@example.com') },
    });
    const next = await phone.request(code.location);
    if (!/decision/.test(next.body)) return { authReqId, page: next };
    const page = await phone.request(`${sent.location}/consent`, { form: { csrf, decision: 'approve' } });
    return { authReqId, page };
  }

  it('completes on the phone confirmed for ann (its device bound), and hands Grants the login', async () => {
    const phone = auth.browser();
    const first = await approveOn(phone);
    assert.equal(grants.requests.get(first.authReqId)?.outcome?.kind, 'completed');
    const login = logins.at(-1);
    assert.ok(login?.deviceId && login.flowId, 'CompleteBackchannel carries the login');
    await confirmMembership(auth.users.memberships, {
      tenantId: pollClient.tenantId,
      appId: pollClient.appId,
      userId,
      deviceId: login.deviceId,
      alias: 'ann',
      at: login.loginAt,
    });
    const bound = await approveOn(phone, { bound_to: 'alias:ann' });
    assert.equal(grants.requests.get(bound.authReqId)?.outcome?.kind, 'completed');
  });

  it('another phone, never confirmed: the request is denied (access_denied for the RP), nothing completed', async () => {
    const { authReqId, page } = await approveOn(auth.browser(), { bound_to: 'alias:ann' });
    assert.equal(page.status, 200);
    assert.match(page.body, /Request denied/);
    const outcome = grants.requests.get(authReqId)?.outcome;
    assert.equal(outcome?.kind, 'denied');
    assert.match(outcome?.kind === 'denied' ? outcome.reason : '', /^device_not_bound: /);
  });

  it('an alias nobody has: denied', async () => {
    const { authReqId } = await approveOn(auth.browser(), { bound_to: 'alias:nobody' });
    assert.equal(grants.requests.get(authReqId)?.outcome?.kind, 'denied');
  });
});
