import { randomUUID } from 'node:crypto';
import type { grants } from '@sesame/proto';
import type { Flow, FlowDevice, ProofMethod } from '../flow/flow';
import type { FlowStore } from '../flow/flow-store';
import type { User } from '../users/model';
import { DuplicateUserError, type UserStore } from '../users/users.repository';
import { computeClaims } from './claims';
import type { Recorder } from './flow-events';
import { type SignInRequest, isTransaction } from './request';

export interface SignInDeps {
  flows: FlowStore;
  users: UserStore;
  issueCode(request: grants.IssueCodeRequest): Promise<grants.IssueCodeResponse>;
  record: Recorder;
  now(): number;
  /** iss of the authorization response (RFC 9207): SESAME_AUTH_URL. */
  issuer: string;
}

type SignInFlow = Flow<SignInRequest>;

/** Scopes that share something about the person: consent is asked once per application for each. */
const SHARED_SCOPES = new Set(['email', 'phone', 'svc_network_info']);

/** The user with this verified address: found, or created on the first verified email (sub is a UUID v4). */
async function userForVerifiedEmail(deps: SignInDeps, flow: SignInFlow, email: string, at: number) {
  const existing = await deps.users.users.findByEmail(email);
  if (existing) {
    await deps.users.users.update(existing.userId, { emailVerifiedAt: at });
    return { user: { ...existing, emailVerifiedAt: at }, created: false };
  }
  const user: User = { userId: randomUUID(), email, createdAt: at, emailVerifiedAt: at };
  try {
    await deps.users.users.create(user);
  } catch (err) {
    // Two flows verified the same new address at once: the other created the user; use it.
    if (!(err instanceof DuplicateUserError)) throw err;
    const winner = await deps.users.users.findByEmail(email);
    if (!winner) throw err;
    return { user: winner, created: false };
  }
  await deps.record({ ...flow, userId: user.userId }, 'new_user_registered');
  return { user, created: true };
}

/** Does this sign-in need the consent page? Always for transactions and approvals; else for unshared scopes. */
export async function needsConsent(deps: SignInDeps, flow: SignInFlow, userId: string): Promise<boolean> {
  if (isTransaction(flow.request)) return true;
  const membership = await deps.users.memberships.get(flow.tenantId, flow.appId, userId);
  const agreed = new Set(membership?.consentedScopes ?? []);
  return flow.request.scope.some((s) => SHARED_SCOPES.has(s) && !agreed.has(s));
}

/** The email is proven (a right code, or a confirmed link): the user exists from here, the flow moves on. */
export async function proveEmail(
  deps: SignInDeps,
  flow: SignInFlow,
  proof: { method: ProofMethod; email: string; device: FlowDevice; clientIp: string },
): Promise<SignInFlow> {
  const at = deps.now();
  const { user } = await userForVerifiedEmail(deps, flow, proof.email, at);
  const next: SignInFlow = {
    ...flow,
    email: proof.email,
    userId: user.userId,
    proof: { method: proof.method, at, device: proof.device, clientIp: proof.clientIp },
  };
  next.step = (await needsConsent(deps, next, user.userId)) ? 'consent' : 'ready';
  await deps.flows.save(next);
  await deps.record(next, 'email_verification_success', {
    authMethodType: proof.method,
    clientIp: proof.clientIp,
  });
  return next;
}

function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** An error redirect to the RP (OIDC Core 3.1.2.6 with RFC 9207's iss). */
export function errorRedirect(
  deps: Pick<SignInDeps, 'issuer'>,
  request: SignInRequest,
  error: string,
  description: string,
): string {
  return redirectWith(request.redirectUri, {
    error,
    error_description: description,
    state: request.state,
    iss: deps.issuer,
  });
}

/**
 * Finishes a proven, consented flow: records the login, asks token for a code with the complete claim set,
 * and returns where to send the browser (the RP's redirect_uri with code, state and iss). The flow is deleted
 * first, so a second tab cannot finish it twice.
 */
export async function completeSignIn(deps: SignInDeps, flow: SignInFlow): Promise<string> {
  if (!flow.userId || !flow.proof || flow.step !== 'ready') throw new Error('flow is not ready to complete');
  await deps.flows.delete(flow.id);
  const now = deps.now();
  const { users, memberships, devices } = deps.users;
  const user = await users.get(flow.userId);
  if (!user) throw new Error('proven user vanished');
  const membership = await memberships.get(flow.tenantId, flow.appId, user.userId);
  const known = await devices.listForUser(user.userId);
  const confirmed = (await memberships.listForUser(flow.tenantId, user.userId)).filter((m) => m.confirmed);
  const claims = computeClaims({
    request: flow.request,
    user,
    method: flow.proof.method,
    authTimeMs: flow.proof.at,
    originating: flow.originatingDevice,
    authenticating: flow.proof.device,
    membership,
    devices: known,
    confirmedAppCount: confirmed.length,
  });

  const authDevice = flow.proof.device.deviceId;
  const before = membership?.deviceLogins?.[authDevice];
  await memberships.save({
    tenantId: flow.tenantId,
    appId: flow.appId,
    userId: user.userId,
    acrValues: membership?.acrValues ?? [],
    confirmed: membership?.confirmed ?? false,
    ...membership,
    // A first login is the proof's moment, as the claims just computed say (capp_first_login): not `now`,
    // which is later by as long as the person took on the consent page.
    firstLoginAt: membership?.firstLoginAt ?? flow.proof.at,
    lastLoginAt: now,
    consentedScopes: [...new Set([...(membership?.consentedScopes ?? []), ...flow.request.scope])],
    deviceLogins: {
      ...membership?.deviceLogins,
      [authDevice]: { firstLoginAt: before?.firstLoginAt ?? flow.proof.at, lastLoginAt: now },
    },
  });
  for (const d of new Map([flow.originatingDevice, flow.proof.device].map((d) => [d.deviceId, d])).values()) {
    const seen = known.find((k) => k.deviceId === d.deviceId);
    await devices.save({
      userId: user.userId,
      deviceId: d.deviceId,
      registeredAt: seen?.registeredAt ?? now,
      lastSeenAt: now,
      facts: d.facts,
    });
  }
  await users.update(user.userId, { lastSeenAt: now });

  const { code } = await deps.issueCode({
    tenantId: flow.tenantId,
    appId: flow.appId,
    clientId: flow.clientId,
    redirectUri: flow.request.redirectUri,
    scope: flow.request.scope.join(' '),
    codeChallenge: flow.request.codeChallenge ?? '',
    codeChallengeMethod: flow.request.codeChallenge ? 'S256' : '',
    flowId: flow.id,
    claims,
  });
  await deps.record(flow, 'auth_complete', {
    status: 'success',
    authMethodType: flow.proof.method,
    isNewAuthenticationDeviceForRP: before === undefined,
    authenticatingDeviceInfo: {
      osType: flow.proof.device.facts.osType,
      osVersion: flow.proof.device.facts.osVersion,
      browserType: flow.proof.device.facts.browserType,
      browserVersion: flow.proof.device.facts.browserVersion,
      detectedName: flow.proof.device.facts.deviceName,
    },
  });
  return redirectWith(flow.request.redirectUri, { code, state: flow.request.state, iss: deps.issuer });
}
