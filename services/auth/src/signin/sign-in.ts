import { randomUUID } from 'node:crypto';
import type { grants } from '@sesame/proto';
import type { Flow, FlowDevice, ProofMethod } from '../flow/flow';
import type { FlowStore } from '../flow/flow-store';
import type { Passkey, PasskeyRepository } from '../passkeys';
import type { SignedIn } from '../session/browser-session';
import type { User } from '../users/model';
import { DuplicateUserError, type UserStore } from '../users/users.repository';
import { blockedCountry, blockedDevice } from './access-rules';
import { DeviceNotBoundError, boundToAllows, stopUnbound } from './bound-to';
import { computeClaims } from './claims';
import type { Recorder } from './flow-events';
import { membershipAfterLogin } from './login-membership';
import { redirectWith } from './redirects';
import { type SignInRequest, isTransaction } from './request';

export interface SignInDeps {
  flows: FlowStore;
  users: UserStore;
  issueCode(request: grants.IssueCodeRequest): Promise<grants.IssueCodeResponse>;
  record: Recorder;
  now(): number;
  /** iss of the authorization response (RFC 9207): SESAME_AUTH_URL. */
  issuer: string;
  /** The ISO 3166-1 alpha-2 country of an IP address, when the location database knows it. */
  countryOf(ip: string): string | undefined;
  /** Users' passkeys; without them no passkey is offered after an email proof. */
  passkeys?: PasskeyRepository;
}

type SignInFlow = Flow<SignInRequest>;

/** Scopes that share something about the person: consent is asked once per application for each. */
const SHARED_SCOPES = new Set(['email', 'phone', 'svc_network_info']);

/** The user with this verified address: found, or created on the first verified email (sub is a UUID v4). */
export async function userForVerifiedEmail(deps: SignInDeps, flow: SignInFlow, email: string, at: number) {
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

/**
 * Moves a flow whose person is now known on: consent when needed, else ready; or `blocked` when the proof
 * came from a country the tenant blocks (restricted_location; the browser that started the flow was checked
 * at /authorize), or when an admin blocked one of its devices for that user (device_blocked_rejection).
 */
async function proven(deps: SignInDeps, next: SignInFlow, userId: string): Promise<SignInFlow> {
  const country = next.proof && blockedCountry(deps, next, next.proof.clientIp);
  if (country) {
    Object.assign(next, { step: 'blocked', blockedBy: 'location' });
    await deps.flows.save(next);
    await deps.record(next, 'restricted_location', {
      status: 'blocked',
      failureReason: `sign-in from a blocked country (${country})`,
    });
    return next;
  }
  const blocked = await blockedDevice(deps, next, userId);
  if (blocked) {
    Object.assign(next, { step: 'blocked', blockedBy: 'device' });
    await deps.flows.save(next);
    await deps.record(next, 'device_blocked_rejection', {
      status: 'blocked',
      failureReason: 'the device is blocked for this user',
    });
    return next;
  }
  if (await stopUnbound(deps, next)) return next;
  if (await offersPasskey(deps, next, userId)) {
    next.step = 'passkey_offer';
    await deps.flows.save(next);
    return next;
  }
  return afterPasskeyOffer(deps, next);
}

/**
 * Offer a passkey after this proof? When it was an email (now, in this flow: not single sign-on), the browser
 * said it can hold a passkey, and the person has no usable one on this device (none yet, or only suspected ones).
 */
async function offersPasskey(deps: SignInDeps, flow: SignInFlow, userId: string): Promise<boolean> {
  if (!deps.passkeys || !flow.canCreatePasskey || !flow.proof) return false;
  if (flow.proof.method === 'fido2' || flow.proof.bySession) return false;
  const device = flow.originatingDevice.deviceId;
  const mine = await deps.passkeys.listForUser(userId);
  return !mine.some((p) => p.deviceId === device && p.status === 'active');
}

/** Past the passkey offer (created, or not now): consent when needed, else ready. */
export async function afterPasskeyOffer(deps: SignInDeps, flow: SignInFlow): Promise<SignInFlow> {
  const next: SignInFlow = { ...flow };
  next.step = (await needsConsent(deps, next, flow.userId!)) ? 'consent' : 'ready';
  await deps.flows.save(next);
  return next;
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
  await deps.record(next, 'email_verification_success', {
    authMethodType: proof.method,
    clientIp: proof.clientIp,
  });
  return proven(deps, next, user.userId);
}

/** A passkey signed with user verification (PasskeyCeremonies.authenticate): its owner, by fido2 on this device. */
export async function provePasskey(
  deps: SignInDeps,
  flow: SignInFlow,
  proof: { passkey: Passkey; device: FlowDevice; clientIp: string },
): Promise<SignInFlow> {
  const user = await deps.users.users.get(proof.passkey.userId);
  if (!user) throw new Error('the passkey’s user vanished');
  const next: SignInFlow = {
    ...flow,
    email: user.email,
    userId: user.userId,
    proof: {
      method: 'fido2',
      at: deps.now(),
      device: proof.device,
      clientIp: proof.clientIp,
      authenticatorId: proof.passkey.credentialId,
    },
  };
  await deps.record(next, 'biometric_verification_success', {
    authMethodType: 'fido2',
    clientIp: proof.clientIp,
  });
  return proven(deps, next, user.userId);
}

/**
 * Single sign-on: the browser already signed this person in for the flow's tenant, so the flow is proven by
 * that earlier authentication (same method and auth_time), unless the request asks for a fresh one: prompt
 * login, acr_values ts.svc.iac.email ("verify the email in this flow"), or a login_hint naming someone else.
 * Undefined when the session cannot be used (the flow then shows the sign-in page).
 */
export async function proveBySession(
  deps: SignInDeps,
  flow: SignInFlow,
  signedIn: SignedIn | undefined,
): Promise<SignInFlow | undefined> {
  const { request } = flow;
  if (!signedIn || signedIn.tenantId !== flow.tenantId) return undefined;
  if (request.prompt === 'login' || request.acrValues.includes('ts.svc.iac.email')) return undefined;
  const user = await deps.users.users.get(signedIn.userId);
  if (!user) return undefined; // removed since
  if (request.loginHint && request.loginHint.toLowerCase() !== user.email) return undefined;
  const next: SignInFlow = {
    ...flow,
    email: user.email,
    userId: user.userId,
    proof: {
      method: signedIn.method,
      at: signedIn.authTime,
      device: flow.originatingDevice,
      clientIp: flow.clientIp,
      bySession: true,
    },
  };
  return proven(deps, next, user.userId);
}

export { errorRedirect } from './redirects';

/**
 * Finishes a proven, consented flow: records the login, asks token for a code with the complete claim set,
 * and returns where to send the browser (the RP's redirect_uri with code, state and iss). The flow is deleted
 * first, so a second tab cannot finish it twice; bound_to is checked again before (DeviceNotBoundError).
 */
export async function completeSignIn(deps: SignInDeps, flow: SignInFlow): Promise<string> {
  if (!flow.userId || !flow.proof || flow.step !== 'ready') throw new Error('flow is not ready to complete');
  if (!(await boundToAllows(deps.users, flow))) throw new DeviceNotBoundError();
  await deps.flows.delete(flow.id);
  const now = deps.now();
  const { users, memberships, devices } = deps.users;
  // Independent reads, at once (each is a round trip to Mongo): the user, their devices and their memberships
  // in the tenant, of which this app's is one.
  const [user, known, tenantMemberships] = await Promise.all([
    users.get(flow.userId),
    devices.listForUser(flow.userId),
    memberships.listForUser(flow.tenantId, flow.userId),
  ]);
  if (!user) throw new Error('proven user vanished');
  const membership = tenantMemberships.find((m) => m.appId === flow.appId);
  const confirmed = tenantMemberships.filter((m) => m.confirmed);
  // When this login happened: the proof's moment (not `now`, which is later by as long as the person took on
  // the consent page), or now when the proof is an earlier sign-in of this browser (single sign-on).
  const loginAt = flow.proof.bySession ? now : flow.proof.at;
  const claims = computeClaims({
    request: flow.request,
    user,
    method: flow.proof.method,
    ama: flow.proof.ama,
    authTimeMs: flow.proof.at,
    loginAtMs: loginAt,
    originating: flow.originatingDevice,
    authenticating: flow.proof.device,
    authenticatorId: flow.proof.authenticatorId,
    membership,
    devices: known,
    confirmedAppCount: confirmed.length,
  });

  const authDevice = flow.proof.device.deviceId;
  const newDeviceForApp = membership?.deviceLogins?.[authDevice] === undefined;
  const proof = flow.proof;
  // The login's records and the code do not depend on one another: they go at once. The browser gets the
  // code only when all of them succeeded; a code issued for a login whose records failed is never sent and
  // expires unused.
  const [{ code }] = await Promise.all([
    issueCodeFor(deps, flow, proof, claims, authDevice, loginAt),
    memberships.update(flow.tenantId, flow.appId, user.userId, (current) =>
      membershipAfterLogin(current, membership, {
        tenantId: flow.tenantId,
        appId: flow.appId,
        userId: user.userId,
        scopes: flow.request.scope,
        deviceId: authDevice,
        loginAt,
        now,
      }),
    ),
    ...[...new Map([flow.originatingDevice, proof.device].map((d) => [d.deviceId, d])).values()].map((d) =>
      devices.save({
        userId: user.userId,
        deviceId: d.deviceId,
        registeredAt: known.find((k) => k.deviceId === d.deviceId)?.registeredAt ?? now,
        lastSeenAt: now,
        facts: d.facts,
      }),
    ),
    users.update(user.userId, { lastSeenAt: now }),
  ]);
  await deps.record(flow, 'auth_complete', {
    status: 'success',
    authMethodType: flow.proof.method,
    ...(membership?.alias ? { userAlias: membership.alias } : {}),
    isNewAuthenticationDeviceForRP: newDeviceForApp,
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

/** Asks token for the authorization code of a completed login, with its claim set and login reference. */
function issueCodeFor(
  deps: SignInDeps,
  flow: SignInFlow,
  proof: NonNullable<SignInFlow['proof']>,
  claims: ReturnType<typeof computeClaims>,
  authDevice: string,
  loginAt: number,
) {
  return deps.issueCode({
    tenantId: flow.tenantId,
    appId: flow.appId,
    clientId: flow.clientId,
    redirectUri: flow.request.redirectUri,
    scope: flow.request.scope.join(' '),
    codeChallenge: flow.request.codeChallenge ?? '',
    codeChallengeMethod: flow.request.codeChallenge ? 'S256' : '',
    flowId: flow.id,
    claims,
    login: {
      flowId: flow.id,
      authenticatorId: proof.authenticatorId ?? '',
      deviceId: authDevice,
      loginAt,
    },
  });
}
