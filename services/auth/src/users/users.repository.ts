import type { AppMembership, DeviceAccess, User, UserDevice } from './model';

/** People. Users are global (one `sub` across tenants); what a tenant knows of them is its memberships. */
export interface UserRepository {
  /** Rejects with DuplicateUserError when the userId or email exists. */
  create(user: User): Promise<void>;
  get(userId: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** The users of these ids that exist, in one read (any order; an unknown id is left out). */
  getMany(userIds: string[]): Promise<User[]>;
  /** Sets the given fields of an existing user; false when there is no such user. */
  update(
    userId: string,
    patch: Pick<Partial<User>, 'emailVerifiedAt' | 'lastSeenAt' | 'phoneNumber' | 'phoneVerifiedAt'>,
  ): Promise<boolean>;
  /**
   * Disables the user in one tenant since `at` (epoch ms), or enables them again (`at` undefined), leaving the
   * other tenants' decisions as they are; false when there is no such user.
   */
  setDisabled(userId: string, tenantId: string, at: number | undefined): Promise<boolean>;
  /**
   * People newest first ((createdAt, userId) descending), strictly after `before` in that order: a keyset page,
   * stable while people are added (support's list, issue 38). At most `limit`.
   */
  listNewest(limit: number, before?: UserPosition): Promise<User[]>;
  /**
   * People whose address starts with `prefix` (compared in lower case: auth stores addresses lower-cased), in
   * address order, strictly after the address `after`; at most `limit`. The prefix is text, never a pattern.
   */
  findByEmailPrefix(prefix: string, limit: number, after?: string): Promise<User[]>;
  /** Forgets the person's phone number and when it was verified; false when there is no such user. */
  removePhone(userId: string): Promise<boolean>;
}

/** A place in the newest-first list of people: the last one shown. */
export interface UserPosition {
  createdAt: number;
  userId: string;
}

/** The exclusive upper bound of the strings starting with `prefix` (its last code unit plus one). */
export const prefixEnd = (prefix: string): string =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/** The devices each user has signed in with (global, like users). */
export interface UserDeviceRepository {
  /** Creates or replaces the record of (userId, deviceId). */
  save(device: UserDevice): Promise<void>;
  get(userId: string, deviceId: string): Promise<UserDevice | undefined>;
  listForUser(userId: string): Promise<UserDevice[]>;
}

/** Associations of users with the applications of a tenant. Tenant id in every method. */
export interface MembershipRepository {
  /** Creates or replaces the membership of (tenantId, appId, userId). */
  save(membership: AppMembership): Promise<void>;
  get(tenantId: string, appId: string, userId: string): Promise<AppMembership | undefined>;
  /**
   * Changes the membership of (tenantId, appId, userId) from what it is now (undefined: none yet) to what
   * `change` makes of it, atomically: a write by someone else in between (a sign-in completing while session
   * feedback confirms the login) is never overwritten; `change` runs again on the newer membership instead.
   * `change` must be pure (it may run more than once) and keep the three keys. Resolves with what was stored.
   */
  update(
    tenantId: string,
    appId: string,
    userId: string,
    change: (current: AppMembership | undefined) => AppMembership,
  ): Promise<AppMembership>;
  /** The user's memberships in the tenant, optionally in one application only. */
  listForUser(tenantId: string, userId: string, appId?: string): Promise<AppMembership[]>;
  /** Memberships in the tenant carrying this alias, optionally in one application only. */
  findByAlias(tenantId: string, alias: string, appId?: string): Promise<AppMembership[]>;
  /**
   * In one read, the memberships in the tenant of any of these users (every app) and those carrying this alias
   * (of `aliasAppId` only, when given), each once, in first-login order: what support's search asks at once.
   */
  findByUsersOrAlias(
    tenantId: string,
    userIds: string[],
    alias: string,
    aliasAppId?: string,
  ): Promise<AppMembership[]>;
  /**
   * Removes the user's membership of one application, or of every application of the tenant (with the aliases
   * it claimed); returns the count.
   */
  remove(tenantId: string, userId: string, appId?: string): Promise<number>;
  /**
   * Claims an alias of one application for a user, atomically (aliases are unique per application): true when
   * the user holds it now (newly or already), false when another user does.
   */
  claimAlias(tenantId: string, appId: string, alias: string, userId: string): Promise<boolean>;
  /** Gives up the user's claim on an alias (a new alias replaced it); another user's claim is left alone. */
  releaseAlias(tenantId: string, appId: string, alias: string, userId: string): Promise<void>;
}

/** Devices an admin blocked (or unblocked) for a tenant. */
export interface DeviceAccessRepository {
  /** Creates or replaces the decision for (tenantId, userId, deviceId). */
  set(entry: DeviceAccess): Promise<void>;
  get(tenantId: string, userId: string, deviceId: string): Promise<DeviceAccess | undefined>;
  /** Every decision of the tenant about the user's devices. */
  listForUser(tenantId: string, userId: string): Promise<DeviceAccess[]>;
}

export interface UserStore {
  users: UserRepository;
  devices: UserDeviceRepository;
  memberships: MembershipRepository;
  deviceAccess: DeviceAccessRepository;
}

export class DuplicateUserError extends Error {
  constructor(what: string) {
    super(`duplicate ${what}`);
    this.name = 'DuplicateUserError';
  }
}
