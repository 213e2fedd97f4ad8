import { AMR, APP_BOUND_CRED_ACR, EMAIL_ACR, PHONE_ACR } from '@sesame/oauth';
import type { grants } from '@sesame/proto';
import type { FlowDevice, ProofMethod } from '../flow/flow';
import { isBoundAuthenticator } from '../users/confirm-login';
import type { AppMembership, DeviceFacts, User, UserDevice } from '../users/model';
import type { SignInRequest } from './request';

/** What is known at the end of a sign-in, read before this login is recorded. */
export interface SignInFacts {
  request: SignInRequest;
  user: User;
  method: ProofMethod;
  /** Proven on a phone for a desktop flow (desktop to mobile): amr ts.svc.ama before the phone's method. */
  ama?: boolean;
  /** When the person authenticated (auth_time): earlier than this login when a browser session is reused. */
  authTimeMs: number;
  /** When this login happens (first-login times of this login); defaults to authTimeMs. */
  loginAtMs?: number;
  originating: FlowDevice;
  authenticating: FlowDevice;
  /** The passkey credential id when a passkey made the login (acr ts.svc.app_bound_cred is per authenticator). */
  authenticatorId?: string;
  /** The user's membership of this application before this login (undefined on the first). */
  membership?: AppMembership;
  /** The user's devices before this login. */
  devices: UserDevice[];
  /** Applications of the tenant that confirmed the user (session feedback). */
  confirmedAppCount: number;
}

const seconds = (ms: number | undefined) => (ms === undefined ? undefined : Math.floor(ms / 1000));
const amrOf: Readonly<Record<ProofMethod, string>> = AMR;

export function svcDevice(f: DeviceFacts): grants.SvcDevice {
  return {
    deviceName: f.deviceName,
    osType: f.osType,
    osVersion: f.osVersion,
    browserType: f.browserType,
    browserVersion: f.browserVersion,
  };
}

/** The complete claim set of spec 2.2 that token signs (epoch seconds; token turns times into time frames). */
export function computeClaims(f: SignInFacts): grants.AuthenticatedClaims {
  const now = f.loginAtMs ?? f.authTimeMs;
  const authDeviceId = f.authenticating.deviceId;
  const fromDevice = f.membership?.deviceLogins?.[authDeviceId];
  const knownDevice = f.devices.find((d) => d.deviceId === authDeviceId);
  const deviceCount =
    f.devices.length +
    (knownDevice ? 0 : 1) +
    (f.originating.deviceId !== authDeviceId && !f.devices.some((d) => d.deviceId === f.originating.deviceId)
      ? 1
      : 0);
  const { psd2Transaction, approval } = f.request.claims ?? {};
  return {
    sub: f.user.userId,
    authTime: seconds(f.authTimeMs)!,
    nonce: f.request.nonce ?? '',
    acr: [
      ...(f.user.emailVerifiedAt !== undefined ? [EMAIL_ACR] : []),
      ...(f.user.phoneVerifiedAt !== undefined ? [PHONE_ACR] : []),
      ...(isBoundAuthenticator(f.membership, { authenticatorId: f.authenticatorId, deviceId: authDeviceId })
        ? [APP_BOUND_CRED_ACR]
        : []),
    ],
    amr: f.ama ? ['ts.svc.ama', amrOf[f.method]] : [amrOf[f.method]],
    svcInfo: {
      originatingDevice: svcDevice(f.originating.facts),
      authenticatingDevice: svcDevice(f.authenticating.facts),
      cappLastLogin: seconds(f.membership?.lastLoginAt),
      cappLastLoginFromAuthenticatingDevice: seconds(fromDevice?.lastLoginAt),
      cappFirstLogin: seconds(f.membership?.firstLoginAt ?? now),
      // Only on the next login after the first confirmation (completeSignIn clears the pending mark).
      cappFirstConfirmedLogin: f.membership?.firstConfirmedLoginPending
        ? seconds(f.membership.firstConfirmedLoginAt)
        : undefined,
      cappFirstLoginFromAuthenticatingDevice: seconds(fromDevice?.firstLoginAt ?? now),
    },
    psd2Transaction: psd2Transaction ? { ...psd2Transaction } : undefined,
    approval: approval ? { ...approval } : undefined,
    alias: f.membership?.alias,
    email: f.user.email,
    emailVerified: f.user.emailVerifiedAt !== undefined,
    emailUpdatedAt: seconds(f.user.emailVerifiedAt),
    phoneNumber: f.user.phoneNumber,
    phoneNumberVerified: f.user.phoneNumber === undefined ? undefined : f.user.phoneVerifiedAt !== undefined,
    phoneNumberUpdatedAt: seconds(f.user.phoneVerifiedAt),
    networkInfo: {
      deviceCount,
      userRegisteredAt: seconds(f.user.createdAt)!,
      authenticatingDeviceRegisteredAt: seconds(knownDevice?.registeredAt ?? now)!,
      confirmedCappCount: f.confirmedAppCount,
      userLastSeenAt: seconds(f.user.lastSeenAt),
      authenticatingDeviceLastSeenAt: seconds(knownDevice?.lastSeenAt),
    },
  };
}
