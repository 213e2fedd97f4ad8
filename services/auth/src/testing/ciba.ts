// Test support only: a recording fake of the Grants backchannel calls and the Directory's client check,
// CIBA clients, and helpers to call /authorize_ciba on a started auth service.
import { GrpcError, GrpcStatus } from '@sesame/platform';
import { directory as dir, type directory, type grants } from '@sesame/proto';
import { DevSmsOutbox, SmsDeliveryError } from '@sesame/sms';
import type { AuthPeers } from '../peers';
import { type UserStore, memoryUserStore } from '../users';
import { client, startAuth } from './hosted-test-client';
import { startedForSuite } from './suite';

export const pollClient: directory.Client = {
  ...client,
  clientId: 'ciba-poll',
  appName: 'Bank',
  ciba: {
    mode: dir.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL,
    notificationEndpoint: '',
    strictErrors: false,
    expiresIn: 0,
  },
};
export const pingClient: directory.Client = {
  ...pollClient,
  clientId: 'ciba-ping',
  ciba: {
    mode: dir.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING,
    notificationEndpoint: 'https://rp.example/ping',
    strictErrors: false,
    expiresIn: 0,
  },
};
export const SECRET = 'secret-of-the-rp';

interface FakeRequest {
  start: grants.StartBackchannelRequest;
  opened: boolean;
  outcome?: { kind: 'completed'; claims: grants.AuthenticatedClaims } | { kind: 'denied'; reason: string };
}

/** Grants' backchannel methods over a Map, with the same refusals as token (NOT_FOUND, FAILED_PRECONDITION). */
export function fakeGrants() {
  const requests = new Map<string, FakeRequest>();
  let n = 0;
  const live = (id: string) => {
    const r = requests.get(id);
    if (!r) throw new GrpcError(GrpcStatus.NOT_FOUND, 'unknown auth_req_id');
    return r;
  };
  const settle = (id: string, outcome: NonNullable<FakeRequest['outcome']>) => {
    const r = live(id);
    if (r.outcome) throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'already decided');
    r.outcome = outcome;
  };
  const peers: Partial<AuthPeers> = {
    authenticateClient: async (id, secret) =>
      secret === SECRET ? [pollClient, pingClient].find((c) => c.clientId === id) : undefined,
    startBackchannel: async (start) => {
      const authReqId = `req-${++n}-${'x'.repeat(40)}`;
      requests.set(authReqId, { start, opened: false });
      return { authReqId, expiresIn: start.expiresIn || 1800, interval: 1 };
    },
    markBackchannelOpened: async (id) => {
      live(id).opened = true;
    },
    completeBackchannel: async (id, claims) => settle(id, { kind: 'completed', claims }),
    denyBackchannel: async (id, reason) => settle(id, { kind: 'denied', reason }),
  };
  return { peers, requests };
}

/** The SMS outbox, or one whose provider refuses (rejected) or is down (unavailable). */
export function smsOutbox(fail?: 'rejected' | 'unavailable') {
  const outbox = new DevSmsOutbox();
  if (fail) {
    outbox.send = async () => {
      throw new SmsDeliveryError('provider said no', fail, fail === 'rejected' ? 400 : 503);
    };
  }
  return outbox;
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** POSTs a form to /authorize_ciba; defaults to the poll client with a direct link. */
export async function authorizeCiba(
  base: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}/authorize_ciba`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { raw: text };
  }
  return { status: res.status, headers: res.headers, body };
}

export const cibaForm = (extra: Record<string, string> = {}) => ({
  client_id: pollClient.clientId,
  client_secret: SECRET,
  scope: 'openid email',
  channel: JSON.stringify({ type: 'direct_link' }),
  ...extra,
});

/**
 * Auth for a describe's CIBA tests: the fake Grants, an SMS outbox, and ann@example.com as a user; `env`
 * changes the service's config.
 */
export function cibaSuite(env?: Record<string, string>) {
  const grants = fakeGrants();
  const outbox = smsOutbox();
  const auth = startedForSuite(async () => {
    const userStore = memoryUserStore();
    await createTenantUser(userStore, 'ann@example.com');
    return startAuth({ peers: grants.peers, sms: outbox, userStore, ...(env ? { env } : {}) });
  });
  return { auth, grants, outbox };
}

/**
 * A user of the test client's tenant: created with `email`, and a member of the tenant through another of
 * its applications, so the membership of the client's own application (app-1) is untouched. /authorize_ciba
 * names only members of the client's tenant (users/tenant-member.ts).
 */
export async function createTenantUser(
  userStore: UserStore,
  email: string,
  userId: string = crypto.randomUUID(),
): Promise<string> {
  await userStore.users.create({ userId, email, createdAt: 1 });
  await userStore.memberships.save({
    tenantId: client.tenantId,
    appId: 'app-setup',
    userId,
    acrValues: [],
    confirmed: false,
    firstLoginAt: 1,
    lastLoginAt: 1,
  });
  return userId;
}
