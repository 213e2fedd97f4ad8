/** A person. The id is the `sub` of every ID token, shared across all tenants and applications. */
export interface User {
  userId: string;
  email?: string;
  createdAt: number;
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
  confirmed: boolean;
  firstLoginAt: number;
  lastLoginAt: number;
  firstConfirmedLoginAt?: number;
}

/** An admin's decision about one of a user's devices within a tenant. */
export interface DeviceAccess {
  tenantId: string;
  userId: string;
  deviceId: string;
  allowAccess: boolean;
  changedAt: number;
}
