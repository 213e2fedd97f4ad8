/** A person. The id is the `sub` of every ID token, shared across all tenants and applications. */
export interface User {
  userId: string;
  email?: string;
  createdAt: number;
  /** Last time the email address was proven (a verified code or link), epoch ms. */
  emailVerifiedAt?: number;
  /** The mobile number last verified by an SMS code (E.164), and when (acr ts.svc.iac.phone_number). */
  phoneNumber?: string;
  phoneVerifiedAt?: number;
  /** End of the user's previous flow across all service providers, epoch ms (svc_network_info user_last_seen). */
  lastSeenAt?: number;
  /** Set while an administrator has disabled the account, epoch ms (issue 38); absent: active. */
  disabledAt?: number;
}

/** What a user agent tells about a device (spec 2.2 device info): devices/user-agent.ts. */
import type { DeviceFacts } from '../devices/user-agent';
export type { DeviceFacts };

/** A browser or phone a user has signed in with, known by its long-lived device cookie. */
export interface UserDevice {
  userId: string;
  deviceId: string;
  registeredAt: number;
  lastSeenAt: number;
  facts: DeviceFacts;
}

/** First and last login to one application from one device, epoch ms. */
export interface DeviceLogins {
  firstLoginAt: number;
  lastLoginAt: number;
}

/**
 * A user's association with one application of a tenant. Removing it (DELETE users, spec 4.8) drops the
 * alias, ACR values and custom data with it: the next login counts as the first for that application.
 */
export interface AppMembership {
  tenantId: string;
  appId: string;
  userId: string;
  /** Set by the service provider through /session-feedback; unique per application. */
  alias?: string;
  /** ACR values earned for this application (e.g. ts.svc.app_bound_cred once confirmed). */
  acrValues: string[];
  /** Service-provider data kept with the association. */
  customData?: Record<string, unknown>;
  /** Set by /session-feedback (or a registration link with confirmedUser): users/confirm-login.ts. */
  confirmed: boolean;
  firstLoginAt: number;
  lastLoginAt: number;
  /** When the first confirmed login happened, epoch ms (svc_info capp_first_confirmed_login). */
  firstConfirmedLoginAt?: number;
  /** capp_first_confirmed_login is still owed: set by the first confirmation, cleared by the next login. */
  firstConfirmedLoginPending?: boolean;
  /**
   * Authenticators confirmed for this application (acr ts.svc.app_bound_cred, bound_to): passkey credential
   * ids of confirmed passkey logins, and device ids of confirmed logins made without a passkey.
   */
  boundCredentials?: string[];
  boundDevices?: string[];
  /** Scopes the user agreed to share with this application (consent is asked again for new ones). */
  consentedScopes?: string[];
  /** Per device id: logins to this application from that device. */
  deviceLogins?: Record<string, DeviceLogins>;
}

/** An admin's decision about one of a user's devices within a tenant. */
export interface DeviceAccess {
  tenantId: string;
  userId: string;
  deviceId: string;
  allowAccess: boolean;
  changedAt: number;
}
