import { randomUUID } from 'node:crypto';
import { EMAIL_ACR } from '@sesame/oauth';
import type { grants } from '@sesame/proto';
import { hasPrompt } from '../authorize/check-prompt';
import type { AnyFlow, Flow, FlowDevice, ProofMethod } from '../flow/flow';
import type { FlowStore } from '../flow/flow-store';
import type { Passkey, PasskeyRepository } from '../passkeys';
import type { SignedIn } from '../session/browser-session';
import { type User, disabledAt } from '../users/model';
import { DuplicateUserError, type UserStore } from '../users/users.repository';
import { blockedCountry, blockedDevice } from './access-rules';
import { stopUnbound } from './bound-to';
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
  /** The ISO 3166-1 alpha-2 country of an IP address, when the location database knows it. */
  countryOf(ip: string): string | undefined;
  /** Users' passkeys; without them no passkey is offered after an email proof. */
  passkeys?: PasskeyRepository;
}

type SignInFlow = Flow<SignInRequest>;

/** Scopes that share something about the person: consent is asked once per application for each. */
const SHARED_SCOPES = new Set(['email', 'phone', 'svc_network_info']);

/**
 * The user with this verified address: found, or created on the first verified email (sub is a UUID v4).
 * A new user's `new_user_registered` is recorded here unless `recordLater` (the caller then records it with
 * its own next step, in one publish: one engine commit fewer on the embedded default).
 */
export async function userForVerifiedEmail(
  deps: SignInDeps,
  flow: AnyFlow,
  email: string,
  at: number,
  opts: { recordLater?: boolean } = {},
) {
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
  if (!opts.recordLater) await deps.record({ ...flow, userId: user.userId }, 'new_user_registered');
  return { user, created: true };
}

/**
 * Does this sign-in need the consent page? Always for transactions, approvals and prompt consent (OIDC Core
 * 3.1.2.1: the OP asks for consent even when given before); never else for a first-party client (the
 * console); else for unshared scopes.
 */
export async function needsConsent(deps: SignInDeps, flow: SignInFlow, userId: string): Promise<boolean> {
  if (isTransaction(flow.request) || hasPrompt(flow.request, 'consent')) return true;
  // A first-party client (the Sesame Console) asks no consent for its own sign-in.
  if (flow.firstParty) return false;
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
  // An administrator disabled the person in this tenant: whatever the journey (email code, magic link, passkey,
  // single sign-on, a phone's QR sign-in, a CIBA approval), no sign-in completes.
  if (await isDisabled(deps, next.tenantId, userId)) {
    Object.assign(next, { step: 'blocked', blockedBy: 'disabled' });
    await deps.flows.save(next);
    await deps.record(next, 'account_disabled_rejection', {
      status: 'blocked',
      failureReason: 'the account is disabled in this tenant',
    });
    return next;
  }
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

/** Has an administrator of the tenant disabled this person (users/model.ts disabledIn)? */
export async function isDisabled(
  deps: { users: Pick<UserStore, 'users'> },
  tenantId: string,
  userId: string,
): Promise<boolean> {
  const user = await deps.users.users.get(userId);
  return user !== undefined && disabledAt(user, tenantId) !== undefined;
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
  const { user, created } = await userForVerifiedEmail(deps, flow, proof.email, at, { recordLater: true });
  const next: SignInFlow = {
    ...flow,
    email: proof.email,
    userId: user.userId,
    proof: { method: proof.method, at, device: proof.device, clientIp: proof.clientIp },
  };
  // Both events of a first verification are published together, in this order (one call each, started in
  // the same turn: the bus keeps their order, and the engine writes both in one commit).
  await Promise.all([
    created && deps.record({ ...flow, userId: user.userId }, 'new_user_registered'),
    deps.record(next, 'email_verification_success', {
      authMethodType: proof.method,
      clientIp: proof.clientIp,
    }),
  ]);
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
  if (hasPrompt(request, 'login') || request.acrValues.includes(EMAIL_ACR)) return undefined;
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
