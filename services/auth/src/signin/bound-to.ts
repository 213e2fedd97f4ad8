import type { Flow } from '../flow/flow';
import type { FlowStore } from '../flow/flow-store';
import { type LoginAuthenticator, isBoundAuthenticator } from '../users/confirm-login';
import type { UserStore } from '../users/users.repository';
import type { Recorder } from './flow-events';
import type { SignInRequest } from './request';

type SignInFlow = Flow<SignInRequest>;

/** bound_to refused the login at completion (the redirect error device_not_bound, spec 7). */
export class DeviceNotBoundError extends Error {
  constructor() {
    super('the authenticator is not confirmed for this user and application');
    this.name = 'DeviceNotBoundError';
  }
}

export const NOT_BOUND_DESCRIPTION = 'the authenticator is not confirmed for this user and application';

/** What made a proven flow's login: its passkey (fido2), else the device that proved it. */
export function loginAuthenticator(flow: SignInFlow): LoginAuthenticator {
  const proof = flow.proof!;
  return {
    ...(proof.authenticatorId ? { authenticatorId: proof.authenticatorId } : {}),
    deviceId: proof.device.deviceId,
  };
}

/**
 * bound_to (spec 4.2): may this proven flow complete? Without bound_to, yes. With it, only when the named user
 * (by sub, or by the alias of this application) is the person who proved, and the login's authenticator was
 * confirmed for them and this application (users/confirm-login.ts). An unknown alias, another user, an
 * unconfirmed passkey or device, or a login on a browser never confirmed are all the same answer: no.
 */
export async function boundToAllows(
  users: Pick<UserStore, 'memberships'>,
  flow: SignInFlow,
): Promise<boolean> {
  const { boundTo } = flow.request;
  if (!boundTo) return true;
  if (!flow.userId || !flow.proof) return false;
  const named =
    boundTo.type === 'sub'
      ? [boundTo.value]
      : [
          ...new Set(
            (await users.memberships.findByAlias(flow.tenantId, boundTo.value, flow.appId)).map(
              (m) => m.userId,
            ),
          ),
        ];
  if (named.length !== 1 || named[0] !== flow.userId) return false;
  const membership = await users.memberships.get(flow.tenantId, flow.appId, flow.userId);
  return isBoundAuthenticator(membership, loginAuthenticator(flow));
}

/**
 * Stops a proven flow that bound_to refuses, as soon as the person is known: the flow becomes `blocked` (the
 * continue page redirects with device_not_bound) and the refusal is recorded. True when it stopped the flow.
 */
export async function stopUnbound(
  deps: { users: Pick<UserStore, 'memberships'>; flows: FlowStore; record: Recorder },
  flow: SignInFlow,
): Promise<boolean> {
  if (await boundToAllows(deps.users, flow)) return false;
  Object.assign(flow, { step: 'blocked', blockedBy: 'not_bound' });
  await deps.flows.save(flow);
  await deps.record(flow, 'device_auth', {
    status: 'failure',
    failureReason: `device_not_bound: ${NOT_BOUND_DESCRIPTION}`,
  });
  return true;
}
