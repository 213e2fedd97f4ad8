import type { grants } from '@sesame/proto';
import { type RequestedClaims, standardClaims } from '../grants/requested-claims';
import { type TimeFrame, timeFrame } from './time-frame';

export interface DeviceInfoClaim {
  device_name: string;
  os_type: string;
  os_version: string;
  browser_type?: string;
  browser_version?: string;
}

export interface SvcInfoClaim {
  originating_device: DeviceInfoClaim;
  authenticating_device: DeviceInfoClaim;
  capp_last_login?: number;
  capp_last_login_from_authenticating_device?: number;
  capp_first_login?: number;
  capp_first_confirmed_login?: number;
  capp_first_login_from_authenticating_device?: number;
}

export interface NetworkInfoClaim {
  device_count: number;
  user_registration_time: TimeFrame;
  authenticating_device_registration_time: TimeFrame;
  confirmed_capp_count: number;
  user_last_seen?: TimeFrame;
  authenticating_device_last_seen?: TimeFrame;
}

/** The ID token payload of spec 2.2, with exactly the documented JSON types. */
export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time: number;
  /** Present whenever the authentication request carried one (OIDC Core: echoed only when sent). */
  nonce?: string;
  acr: string;
  amr: string[];
  svc_info: SvcInfoClaim;
  svc_psd2_transaction?: Record<string, unknown>;
  svc_approval?: Record<string, unknown>;
  svc_alias?: string;
  email?: string;
  email_verified?: boolean;
  email_last_update?: TimeFrame;
  phone_number?: string;
  phone_number_verified?: boolean;
  phone_number_last_update?: TimeFrame;
  svc_network_info?: NetworkInfoClaim;
  /** The browser session at auth (Back-Channel Logout 1.0 §2.4: matches the logout token's sid). */
  sid?: string;
}

export interface IdTokenInput {
  /** SESAME_AUTH_URL of the environment that mints the token. */
  issuer: string;
  clientId: string;
  /** Space-delimited scope of the grant: decides the scoped claims. */
  scope: string;
  claims: grants.AuthenticatedClaims;
  /** The standard claims the claims parameter asked for (OIDC Core 5.5), with the grant. */
  requested?: RequestedClaims;
  nowMs: number;
  ttlS: number;
}

/** Builds the ID token payload from the claim set auth computed; time frames are computed here, in UTC. */
export function buildIdTokenClaims({
  issuer,
  clientId,
  scope,
  claims,
  requested,
  nowMs,
  ttlS,
}: IdTokenInput): IdTokenClaims {
  const iat = Math.floor(nowMs / 1000);
  const scopes = new Set(scope.split(' ').filter(Boolean));
  const frame = (epochS: number) => timeFrame(epochS * 1000, nowMs);
  const payload: IdTokenClaims = {
    iss: issuer,
    sub: claims.sub,
    aud: clientId,
    exp: iat + ttlS,
    iat,
    auth_time: claims.authTime,
    ...(claims.nonce ? { nonce: claims.nonce } : {}),
    acr: claims.acr.join(' '),
    amr: [...claims.amr],
    svc_info: svcInfo(claims.svcInfo),
    ...(claims.sid ? { sid: claims.sid } : {}),
  };
  if (claims.psd2Transaction) payload.svc_psd2_transaction = claims.psd2Transaction;
  if (claims.approval) payload.svc_approval = claims.approval;
  if (claims.alias) payload.svc_alias = claims.alias;
  // The scope's and the claims parameter's (Core 5.5) standard claims; each time frame goes with its claim.
  const standard = standardClaims('idToken', scope, claims, requested);
  if (standard.email !== undefined) payload.email = String(standard.email);
  if (standard.email_verified !== undefined) payload.email_verified = standard.email_verified === true;
  if (standard.email !== undefined && claims.emailUpdatedAt !== undefined)
    payload.email_last_update = frame(claims.emailUpdatedAt);
  if (standard.phone_number !== undefined) payload.phone_number = String(standard.phone_number);
  if (standard.phone_number_verified !== undefined)
    payload.phone_number_verified = standard.phone_number_verified === true;
  if (standard.phone_number !== undefined && claims.phoneNumberUpdatedAt !== undefined)
    payload.phone_number_last_update = frame(claims.phoneNumberUpdatedAt);
  if (scopes.has('svc_network_info') && claims.networkInfo) {
    payload.svc_network_info = networkInfo(claims.networkInfo, frame);
  }
  return payload;
}

function svcInfo(info: grants.SvcInfo | undefined): SvcInfoClaim {
  const claim: SvcInfoClaim = {
    originating_device: device(info?.originatingDevice),
    authenticating_device: device(info?.authenticatingDevice),
  };
  const times = {
    capp_last_login: info?.cappLastLogin,
    capp_last_login_from_authenticating_device: info?.cappLastLoginFromAuthenticatingDevice,
    capp_first_login: info?.cappFirstLogin,
    capp_first_confirmed_login: info?.cappFirstConfirmedLogin,
    capp_first_login_from_authenticating_device: info?.cappFirstLoginFromAuthenticatingDevice,
  };
  for (const [name, value] of Object.entries(times)) {
    if (value !== undefined) claim[name as keyof typeof times] = value;
  }
  return claim;
}

/** browser_type and browser_version appear only when relevant (the device used a browser). */
function device(d: grants.SvcDevice | undefined): DeviceInfoClaim {
  const claim: DeviceInfoClaim = {
    device_name: d?.deviceName ?? '',
    os_type: d?.osType ?? '',
    os_version: d?.osVersion ?? '',
  };
  if (d?.browserType) claim.browser_type = d.browserType;
  if (d?.browserVersion) claim.browser_version = d.browserVersion;
  return claim;
}

function networkInfo(info: grants.NetworkInfo, frame: (epochS: number) => TimeFrame): NetworkInfoClaim {
  const claim: NetworkInfoClaim = {
    device_count: info.deviceCount,
    user_registration_time: frame(info.userRegisteredAt),
    authenticating_device_registration_time: frame(info.authenticatingDeviceRegisteredAt),
    confirmed_capp_count: info.confirmedCappCount,
  };
  if (info.userLastSeenAt !== undefined) claim.user_last_seen = frame(info.userLastSeenAt);
  if (info.authenticatingDeviceLastSeenAt !== undefined) {
    claim.authenticating_device_last_seen = frame(info.authenticatingDeviceLastSeenAt);
  }
  return claim;
}
