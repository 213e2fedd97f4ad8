import type { grants } from '@sesame/proto';
import type { Flow } from '../flow/flow';
import { DeviceNotBoundError, boundToAllows } from './bound-to';
import { computeClaims } from './claims';
import { membershipAfterLogin } from './login-membership';
import type { SignInDeps } from './prove';
import { redirectWith } from './redirects';
import type { SignInRequest } from './request';

type SignInFlow = Flow<SignInRequest>;

/**
 * Finishes a proven, consented flow: records the login, asks token for a code with the complete claim set,
 * and returns where to send the browser (the RP's redirect_uri with code, state and iss). The flow is deleted
 * first, so a second tab cannot finish it twice; bound_to is checked again before (DeviceNotBoundError).
 * `sid`: the browser session's id for RPs (the ID token's sid claim), when the sign-in has a browser session.
 */
export async function completeSignIn(deps: SignInDeps, flow: SignInFlow, sid?: string): Promise<string> {
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
    issueCodeFor(deps, flow, proof, sid ? { ...claims, sid } : claims, authDevice, loginAt),
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
    dpopJkt: flow.request.dpopJkt ?? '',
    flowId: flow.id,
    claims,
    requestedClaims: requestedClaimNames(flow.request),
    ...requestedClaimValues(flow.request),
    login: {
      flowId: flow.id,
      authenticatorId: proof.authenticatorId ?? '',
      deviceId: authDevice,
      loginAt,
    },
  });
}

/** The standard claims the claims parameter named (OIDC Core 5.5), for token's ID token and userinfo. */
function requestedClaimNames(request: SignInRequest): grants.RequestedClaimNames | undefined {
  const { idToken = [], userinfo = [] } = request.claims ?? {};
  return idToken.length || userinfo.length ? { idToken, userinfo } : undefined;
}

/** The value or values the claims parameter named for those claims (OIDC Core 5.5.1), JSON by member. */
function requestedClaimValues(request: SignInRequest): Pick<grants.IssueCodeRequest, 'requestedClaimValues'> {
  const values = request.claims?.values;
  if (!values) return {};
  return {
    requestedClaimValues: {
      ...(values.idToken ? { id_token: values.idToken } : {}),
      ...(values.userinfo ? { userinfo: values.userinfo } : {}),
    },
  };
}
