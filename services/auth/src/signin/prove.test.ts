import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import type { grants } from '@sesame/proto';
import type { Flow } from '../flow/flow';
import { FlowStore } from '../flow/flow-store';
import type { Passkey } from '../passkeys';
import { memoryUserStore } from '../users';
import { completeSignIn } from './complete';
import type { Recorder } from './flow-events';
import { isDisabled, proveBySession, proveEmail, provePasskey, userForVerifiedEmail } from './prove';
import type { SignInRequest } from './request';

const laptop = {
  deviceId: '0b6c4c8e-7d3c-4c51-9d8e-1f1c3f5b2a01',
  facts: {
    deviceName: 'Mac',
    osType: 'macOS',
    osVersion: '14.5',
    browserType: 'Chrome',
    browserVersion: '131.0',
  },
};
const phone = {
  deviceId: '0b6c4c8e-7d3c-4c51-9d8e-1f1c3f5b2a02',
  facts: {
    deviceName: 'iPhone',
    osType: 'iOS',
    osVersion: '18.1',
    browserType: 'Safari',
    browserVersion: '18.1',
  },
};

function harness() {
  let now = 1_700_000_000_000;
  const issued: grants.IssueCodeRequest[] = [];
  const recorded: string[] = [];
  const record: Recorder = async (_flow, action) => {
    recorded.push(action);
  };
  const deps = {
    flows: new FlowStore(new MemoryKeyValueStore(() => now)),
    users: memoryUserStore(),
    issueCode: async (req: grants.IssueCodeRequest) => {
      issued.push(req);
      return { code: `code-${issued.length}`, expiresIn: 60 };
    },
    record,
    now: () => now,
    issuer: 'https://auth.example.com',
    // Test addresses: 198.51.100.0/24 is "in" France here, everything else nowhere.
    countryOf: (ip: string) => (ip.startsWith('198.51.100.') ? 'FR' : undefined),
  };
  const flow = async (
    request: Partial<SignInRequest> = {},
    id = crypto.randomUUID(),
  ): Promise<Flow<SignInRequest>> => {
    const f: Flow<SignInRequest> = {
      id,
      tenantId: 't1',
      appId: 'a1',
      clientId: 'c1',
      appName: 'Shop',
      sessionKey: 'session-hash',
      request: {
        clientId: 'c1',
        redirectUri: 'https://rp.example/cb',
        scope: ['openid', 'email'],
        acrValues: [],
        uiLocales: [],
        state: 's1',
        nonce: 'n1',
        ...request,
      },
      locale: 'en',
      createdAt: now,
      expiresAt: now + 1_800_000,
      step: 'email_code',
      clientIp: '203.0.113.9',
      originatingDevice: laptop,
    };
    await deps.flows.create(f);
    return f;
  };
  const tick = (ms: number) => {
    now += ms;
  };
  return { deps, issued, recorded, flow, tick, now: () => now };
}

/** ann@example.com proves her email with a code on the laptop, from 203.0.113.9, in a new flow. */
const annByEmailCode = async (h: ReturnType<typeof harness>) =>
  proveEmail(h.deps, await h.flow(), {
    method: 'email_otp',
    email: 'ann@example.com',
    device: laptop,
    clientIp: '203.0.113.9',
  });

describe('sign-in core', () => {
  it('stores the first login as the ID token said it was, however long consent took', async () => {
    const h = harness();
    const signIn = async () => {
      const proven = await proveEmail(h.deps, await h.flow(), {
        method: 'email_otp',
        email: 'slow@example.com',
        device: laptop,
        clientIp: '203.0.113.9',
      });
      h.tick(1500); // on the consent page across a second boundary
      await completeSignIn(h.deps, { ...proven, step: 'ready' });
      return h.issued.at(-1)?.claims?.svcInfo;
    };
    const first = await signIn();
    h.tick(60_000);
    const second = await signIn();
    assert.equal(second?.cappFirstLogin, first?.cappFirstLogin);
    assert.equal(
      second?.cappFirstLoginFromAuthenticatingDevice,
      first?.cappFirstLoginFromAuthenticatingDevice,
    );
  });

  it('creates the user on the first verified email and asks consent for the email scope', async () => {
    const h = harness();
    const proven = await annByEmailCode(h);
    assert.equal(proven.step, 'consent');
    const user = await h.deps.users.users.findByEmail('ann@example.com');
    assert.ok(
      user && /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(user.userId),
    );
    assert.equal(user.emailVerifiedAt, h.now());
    assert.deepEqual(h.recorded, ['new_user_registered', 'email_verification_success']);
    assert.deepEqual(await h.deps.flows.get(proven.id), proven);
  });

  it('completes with a code for the complete claim set and redirects with code, state and iss', async () => {
    const h = harness();
    const proven = await annByEmailCode(h);
    const location = await completeSignIn(h.deps, { ...proven, step: 'ready' });
    assert.equal(location, 'https://rp.example/cb?code=code-1&state=s1&iss=https%3A%2F%2Fauth.example.com');
    const [req] = h.issued;
    const t = Math.floor(h.now() / 1000);
    assert.equal(req?.redirectUri, 'https://rp.example/cb');
    assert.equal(req?.scope, 'openid email');
    assert.deepEqual(req?.claims?.acr, ['ts.svc.iac.email']);
    assert.deepEqual(req?.claims?.amr, ['ts.svc.email_otp']);
    assert.equal(req?.claims?.nonce, 'n1');
    assert.equal(req?.claims?.email, 'ann@example.com');
    assert.equal(req?.claims?.emailVerified, true);
    assert.equal(req?.claims?.svcInfo?.cappFirstLogin, t);
    assert.equal(req?.claims?.svcInfo?.cappLastLogin, undefined, 'no previous login');
    assert.equal(req?.claims?.networkInfo?.deviceCount, 1);
    assert.equal(await h.deps.flows.get(proven.id), undefined, 'a completed flow cannot be completed again');
    assert.ok(h.recorded.includes('auth_complete'));
  });

  it('a returning user on a second device: previous logins, device count and magic-link amr', async () => {
    const h = harness();
    const first = await annByEmailCode(h);
    await completeSignIn(h.deps, { ...first, step: 'ready' });
    const firstAt = Math.floor(h.now() / 1000);
    h.tick(3_600_000);
    const second = await proveEmail(h.deps, await h.flow(), {
      method: 'email_magic_link',
      email: 'ann@example.com',
      device: phone,
      clientIp: '198.51.100.7',
    });
    assert.equal(second.step, 'ready', 'email was consented last time');
    await completeSignIn(h.deps, second);
    const claims = h.issued[1]?.claims;
    assert.deepEqual(claims?.amr, ['ts.svc.email_magic_link']);
    assert.equal(claims?.svcInfo?.cappFirstLogin, firstAt);
    assert.equal(claims?.svcInfo?.cappLastLogin, firstAt);
    assert.equal(
      claims?.svcInfo?.cappLastLoginFromAuthenticatingDevice,
      undefined,
      'first login from the phone',
    );
    assert.equal(claims?.svcInfo?.originatingDevice?.deviceName, 'Mac');
    assert.equal(claims?.svcInfo?.authenticatingDevice?.deviceName, 'iPhone');
    assert.equal(claims?.networkInfo?.deviceCount, 2);
    assert.equal(claims?.networkInfo?.userLastSeenAt, firstAt);
    assert.equal((await h.deps.users.devices.listForUser(claims?.sub ?? '')).length, 2);
  });

  it('always asks consent for a transaction, and passes its display and additional data on', async () => {
    const h = harness();
    const psd2 = {
      display_data: { payee: 'Acme', payment_amount: '€10', payment_method: 'Card' },
      additional_data: { ref: 7 },
    };
    const f = await h.flow({ scope: ['openid'], claims: { psd2Transaction: psd2 } });
    const proven = await proveEmail(h.deps, f, {
      method: 'email_otp',
      email: 'bob@example.com',
      device: laptop,
      clientIp: '203.0.113.9',
    });
    assert.equal(proven.step, 'consent');
    await completeSignIn(h.deps, { ...proven, step: 'ready' });
    assert.deepEqual(h.issued[0]?.claims?.psd2Transaction, psd2);
  });

  it('refuses to complete a flow that is not ready', async () => {
    const h = harness();
    const f = await h.flow();
    await assert.rejects(completeSignIn(h.deps, f), /not ready/);
    assert.equal(h.issued.length, 0);
  });
});

describe('single sign-on and blocked devices (sign-in core)', () => {
  async function userOf(h: ReturnType<typeof harness>, email: string) {
    await proveEmail(h.deps, await h.flow(), {
      method: 'email_otp',
      email,
      device: laptop,
      clientIp: '203.0.113.9',
    });
    return (await h.deps.users.users.findByEmail(email))!;
  }

  it('proves a flow by the session of the same tenant only, and not for a user removed since', async () => {
    const h = harness();
    const user = await userOf(h, 'sso@example.com');
    const session = {
      userId: user.userId,
      tenantId: 't1',
      method: 'email_magic_link' as const,
      authTime: 1_600_000_000_000,
    };
    const proven = await proveBySession(h.deps, await h.flow(), session);
    assert.equal(proven?.userId, user.userId);
    assert.deepEqual(proven?.proof && [proven.proof.method, proven.proof.at], [
      'email_magic_link',
      1_600_000_000_000,
    ]);
    assert.equal(await proveBySession(h.deps, await h.flow(), { ...session, tenantId: 't2' }), undefined);
    assert.equal(
      await proveBySession(h.deps, await h.flow(), { ...session, userId: crypto.randomUUID() }),
      undefined,
    );
    assert.equal(await proveBySession(h.deps, await h.flow(), undefined), undefined);
  });

  it("auth_time is the session's authentication, the first-login claims are this login", async () => {
    const h = harness();
    const user = await userOf(h, 'times@example.com');
    const authTime = h.now() - 3_600_000;
    const proven = await proveBySession(h.deps, await h.flow({ scope: ['openid'] }), {
      userId: user.userId,
      tenantId: 't1',
      method: 'email_otp',
      authTime,
    });
    assert.equal(proven?.step, 'ready');
    await completeSignIn(h.deps, proven!);
    const claims = h.issued.at(-1)!.claims!;
    assert.equal(claims.authTime, authTime / 1000);
    assert.equal(claims.svcInfo?.cappFirstLogin, h.now() / 1000);
  });

  it('blocks the flow when the proving device is blocked for the user, and records device_blocked_rejection', async () => {
    const h = harness();
    const user = await userOf(h, 'phone@example.com');
    await h.deps.users.deviceAccess.set({
      tenantId: 't1',
      userId: user.userId,
      deviceId: phone.deviceId,
      allowAccess: false,
      changedAt: h.now(),
    });
    h.recorded.length = 0;
    const byPhone = await proveEmail(h.deps, await h.flow(), {
      method: 'email_magic_link',
      email: 'phone@example.com',
      device: phone,
      clientIp: '198.51.100.1',
    });
    assert.equal(byPhone.step, 'blocked');
    assert.deepEqual(h.recorded, ['email_verification_success', 'device_blocked_rejection']);
    assert.equal((await h.deps.flows.get(byPhone.id))?.step, 'blocked', 'saved as blocked');
    await assert.rejects(completeSignIn(h.deps, byPhone), /not ready/);
    const otherTenant = await proveEmail(
      h.deps,
      { ...(await h.flow()), tenantId: 't2' },
      { method: 'email_otp', email: 'phone@example.com', device: phone, clientIp: '198.51.100.1' },
    );
    assert.notEqual(otherTenant.step, 'blocked', 'a block is per tenant');
  });
});

describe('the tenant location rule (sign-in core)', () => {
  it('blocks a flow whose proof comes from a country the tenant blocks, and records restricted_location', async () => {
    const h = harness();
    const flow = { ...(await h.flow()), blockedCountries: ['FR'] };
    const proven = await proveEmail(h.deps, flow, {
      method: 'email_magic_link',
      email: 'abroad@example.com',
      device: phone,
      clientIp: '198.51.100.7', // FR in this harness
    });
    assert.deepEqual([proven.step, proven.blockedBy], ['blocked', 'location']);
    assert.deepEqual(h.recorded.slice(-2), ['email_verification_success', 'restricted_location']);
    const fine = await proveEmail(
      h.deps,
      { ...(await h.flow()), blockedCountries: ['DE'] },
      {
        method: 'email_otp',
        email: 'abroad@example.com',
        device: laptop,
        clientIp: '198.51.100.7',
      },
    );
    assert.notEqual(fine.step, 'blocked', 'only the listed countries');
  });
});

describe('a person an administrator disabled in the tenant (issue 38)', () => {
  /** ann@example.com exists, with her passkey on the laptop, and is disabled in t1 only. */
  async function disabledAnn(h: ReturnType<typeof harness>) {
    const { user } = await userForVerifiedEmail(h.deps, await h.flow(), 'ann@example.com', h.now());
    await h.deps.users.users.setDisabled(user.userId, 't1', h.now());
    h.recorded.length = 0;
    const passkey: Passkey = {
      credentialId: 'cred-1',
      userId: user.userId,
      deviceId: laptop.deviceId,
      publicKey: 'pk',
      counter: 0,
      transports: ['internal'],
      aaguid: '00000000-0000-0000-0000-000000000000',
      backupEligible: false,
      backedUp: false,
      createdAt: h.now(),
      status: 'active',
    };
    return { user, passkey };
  }

  const refusedAsDisabled = async (h: ReturnType<typeof harness>, flow: Flow<SignInRequest>) => {
    assert.equal(flow.step, 'blocked');
    assert.equal(flow.blockedBy, 'disabled');
    assert.equal(h.recorded.at(-1), 'account_disabled_rejection');
    assert.equal((await h.deps.flows.get(flow.id))?.blockedBy, 'disabled', 'saved as blocked');
    await assert.rejects(completeSignIn(h.deps, flow), /not ready/);
    h.recorded.length = 0;
  };

  it('refuses every proof: email code, magic link, passkey, single sign-on, a phone (QR) and a CIBA flow', async () => {
    const h = harness();
    const { user, passkey } = await disabledAnn(h);
    const byEmail = (method: 'email_otp' | 'email_magic_link', flow: Flow<SignInRequest>) =>
      proveEmail(h.deps, flow, { method, email: 'ann@example.com', device: laptop, clientIp: '203.0.113.9' });
    await refusedAsDisabled(h, await byEmail('email_otp', await h.flow()));
    await refusedAsDisabled(h, await byEmail('email_magic_link', await h.flow()));
    await refusedAsDisabled(
      h,
      await provePasskey(h.deps, await h.flow(), { passkey, device: laptop, clientIp: '203.0.113.9' }),
    );
    const signedIn = { userId: user.userId, tenantId: 't1', method: 'fido2' as const, authTime: h.now() };
    const sso = await proveBySession(h.deps, await h.flow(), signedIn);
    await refusedAsDisabled(h, sso!);
    // The phone's side of a QR sign-in and the approval of a CIBA request are sign-in flows proven the same way.
    const desktop = { desktopFlowId: 'desktop', desktopDevice: laptop, desktopIp: '203.0.113.9' };
    await refusedAsDisabled(h, await byEmail('email_otp', { ...(await h.flow()), ama: desktop }));
    const ciba = { sealedAuthReqId: 'sealed', channel: 'direct_link' as const };
    await refusedAsDisabled(h, await byEmail('email_otp', { ...(await h.flow()), ciba }));
  });

  it('is per tenant, and enabling restores sign-in', async () => {
    const h = harness();
    const { user } = await disabledAnn(h);
    const otherTenant = await proveEmail(
      h.deps,
      { ...(await h.flow()), tenantId: 't2' },
      {
        method: 'email_otp',
        email: 'ann@example.com',
        device: laptop,
        clientIp: '203.0.113.9',
      },
    );
    assert.equal(otherTenant.step, 'consent', 'disabled in t1 only');
    assert.equal(await isDisabled(h.deps, 't2', user.userId), false);
    await h.deps.users.users.setDisabled(user.userId, 't1', undefined);
    assert.equal(await isDisabled(h.deps, 't1', user.userId), false);
    assert.equal((await annByEmailCode(h)).step, 'consent');
  });
});
