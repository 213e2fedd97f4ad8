import { idKeyed } from '@sesame/platform';
import { type AppMembership, type DeviceAccess, type User, type UserDevice, withDisabled } from './model';
import {
  type DeviceAccessRepository,
  DuplicateUserError,
  type MembershipRepository,
  type UserDeviceRepository,
  type UserPosition,
  type UserRepository,
  type UserStore,
} from './users.repository';

const copy = <T>(v: T): T => structuredClone(v);
const dropUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
const key = (...parts: string[]) => parts.join('\u0000');

/**
 * A secondary index (what a Mongo index is to a query): index key → keys of the rows that had it. Only ever
 * added to; a reader takes the rows still there that still match (a row removed or changed since is skipped).
 */
class RowIndex {
  private readonly sets = new Map<string, Set<string>>();
  add(indexKey: string, rowKey: string) {
    const set = this.sets.get(indexKey);
    if (set) set.add(rowKey);
    else this.sets.set(indexKey, new Set([rowKey]));
  }
  rows<T>(indexKey: string, from: Map<string, T>, matches: (row: T) => boolean): T[] {
    const out: T[] = [];
    for (const rowKey of this.sets.get(indexKey) ?? []) {
      const row = from.get(rowKey);
      if (row !== undefined && matches(row)) out.push(row);
    }
    return out;
  }
}

class MemoryUsers implements UserRepository {
  private readonly rows = new Map<string, User>();
  /** email → userId, as Mongo's unique email index (no user's email ever changes). */
  private readonly byEmail = new Map<string, string>();
  async create(user: User) {
    if (this.rows.has(user.userId)) throw new DuplicateUserError('userId');
    if (user.email && this.byEmail.has(user.email)) throw new DuplicateUserError('email');
    this.rows.set(user.userId, copy(dropUndefined(user)));
    if (user.email) this.byEmail.set(user.email, user.userId);
  }
  async get(userId: string) {
    const row = this.rows.get(userId);
    return row && copy(row);
  }
  async findByEmail(email: string) {
    const userId = this.byEmail.get(email);
    const row = userId === undefined ? undefined : this.rows.get(userId);
    return row && copy(row);
  }
  async getMany(userIds: string[]) {
    return [...new Set(userIds)].flatMap((userId) => {
      const row = this.rows.get(userId);
      return row ? [copy(row)] : [];
    });
  }
  async update(userId: string, patch: Pick<Partial<User>, 'emailVerifiedAt' | 'lastSeenAt'>) {
    const row = this.rows.get(userId);
    if (!row) return false;
    this.rows.set(userId, { ...row, ...copy(dropUndefined(patch)) });
    return true;
  }
  async setDisabled(userId: string, tenantId: string, at: number | undefined) {
    const row = this.rows.get(userId);
    if (!row) return false;
    this.rows.set(userId, withDisabled(row, tenantId, at));
    return true;
  }
  /** A scan: this adapter serves tests and small embedded stores (the SQLite and Mongo adapters use indexes). */
  async listNewest(limit: number, before?: UserPosition) {
    const after = (u: User) =>
      !before ||
      u.createdAt < before.createdAt ||
      (u.createdAt === before.createdAt && u.userId < before.userId);
    return [...this.rows.values()]
      .filter(after)
      .sort((a, b) => b.createdAt - a.createdAt || (a.userId < b.userId ? 1 : -1))
      .slice(0, limit)
      .map(copy);
  }
  async findByEmailPrefix(prefix: string, limit: number, after?: string) {
    const start = prefix.toLowerCase();
    const rows: [string, User][] = [];
    for (const row of this.rows.values()) {
      const email = row.email?.toLowerCase();
      if (email?.startsWith(start) && (after === undefined || email > after)) rows.push([email, row]);
    }
    rows.sort(([a], [b]) => (a < b ? -1 : 1));
    return rows.slice(0, limit).map(([, row]) => copy(row));
  }
  async removePhone(userId: string) {
    const row = this.rows.get(userId);
    if (!row) return false;
    const { phoneNumber: _n, phoneVerifiedAt: _v, ...rest } = row;
    this.rows.set(userId, rest);
    return true;
  }
}

class MemoryUserDevices implements UserDeviceRepository {
  private readonly rows = new Map<string, UserDevice>();
  private readonly byUser = new RowIndex();
  async save(device: UserDevice) {
    const k = key(device.userId, device.deviceId);
    this.rows.set(k, copy(device));
    this.byUser.add(device.userId, k);
  }
  async get(userId: string, deviceId: string) {
    const row = this.rows.get(key(userId, deviceId));
    return row && copy(row);
  }
  async listForUser(userId: string) {
    return this.byUser
      .rows(userId, this.rows, (d) => d.userId === userId)
      .sort((a, b) => a.registeredAt - b.registeredAt)
      .map(copy);
  }
}

class MemoryMemberships implements MembershipRepository {
  private readonly rows = new Map<string, AppMembership>();
  /** key(tenant, app, alias) → userId. */
  private readonly aliases = new Map<string, string>();
  /** key(tenant, user) and key(tenant, alias) → row keys. */
  private readonly byUser = new RowIndex();
  private readonly byAlias = new RowIndex();
  private put(k: string, m: AppMembership) {
    const row = copy(dropUndefined(m));
    // Keyed by device ids: an ordinary object would give every device's key a hidden class of its own.
    if (row.deviceLogins) row.deviceLogins = idKeyed(row.deviceLogins);
    this.rows.set(k, row);
    this.byUser.add(key(m.tenantId, m.userId), k);
    if (m.alias !== undefined) this.byAlias.add(key(m.tenantId, m.alias), k);
  }
  async save(m: AppMembership) {
    this.put(key(m.tenantId, m.appId, m.userId), m);
  }
  async get(tenantId: string, appId: string, userId: string) {
    const row = this.rows.get(key(tenantId, appId, userId));
    return row && copy(row);
  }
  /** Read, change and write with no await between them: nothing else runs in between. */
  async update(
    tenantId: string,
    appId: string,
    userId: string,
    change: (current: AppMembership | undefined) => AppMembership,
  ) {
    const k = key(tenantId, appId, userId);
    const row = this.rows.get(k);
    const next = change(row && copy(row));
    if (key(next.tenantId, next.appId, next.userId) !== k)
      throw new Error('a membership update changed its keys');
    this.put(k, next);
    return copy(this.rows.get(k)!);
  }
  private select(index: RowIndex, indexKey: string, pred: (m: AppMembership) => boolean) {
    return index.rows(indexKey, this.rows, pred).sort((a, b) => a.firstLoginAt - b.firstLoginAt);
  }
  async listForUser(tenantId: string, userId: string, appId?: string) {
    return this.select(
      this.byUser,
      key(tenantId, userId),
      (m) => m.tenantId === tenantId && m.userId === userId && (!appId || m.appId === appId),
    ).map(copy);
  }
  async findByAlias(tenantId: string, alias: string, appId?: string) {
    return this.select(
      this.byAlias,
      key(tenantId, alias),
      (m) => m.tenantId === tenantId && m.alias === alias && (!appId || m.appId === appId),
    ).map(copy);
  }
  async findByUsersOrAlias(tenantId: string, userIds: string[], alias: string, aliasAppId?: string) {
    const found = new Map<string, AppMembership>();
    for (const userId of new Set(userIds)) {
      for (const m of this.byUser.rows(
        key(tenantId, userId),
        this.rows,
        (m) => m.tenantId === tenantId && m.userId === userId,
      ))
        found.set(key(m.appId, m.userId), m);
    }
    const aliased = (m: AppMembership) =>
      m.tenantId === tenantId && m.alias === alias && (!aliasAppId || m.appId === aliasAppId);
    for (const m of this.byAlias.rows(key(tenantId, alias), this.rows, aliased))
      found.set(key(m.appId, m.userId), m);
    return [...found.values()].sort((a, b) => a.firstLoginAt - b.firstLoginAt).map(copy);
  }
  async remove(tenantId: string, userId: string, appId?: string) {
    const doomed = await this.listForUser(tenantId, userId, appId);
    for (const m of doomed) this.rows.delete(key(m.tenantId, m.appId, m.userId));
    for (const [k, owner] of this.aliases) {
      const [t, a] = k.split('\u0000');
      if (owner === userId && t === tenantId && (!appId || a === appId)) this.aliases.delete(k);
    }
    return doomed.length;
  }
  async claimAlias(tenantId: string, appId: string, alias: string, userId: string) {
    const k = key(tenantId, appId, alias);
    const owner = this.aliases.get(k);
    if (owner === undefined) this.aliases.set(k, userId);
    return (owner ?? userId) === userId;
  }
  async releaseAlias(tenantId: string, appId: string, alias: string, userId: string) {
    const k = key(tenantId, appId, alias);
    if (this.aliases.get(k) === userId) this.aliases.delete(k);
  }
}

class MemoryDeviceAccess implements DeviceAccessRepository {
  private readonly rows = new Map<string, DeviceAccess>();
  async set(entry: DeviceAccess) {
    this.rows.set(key(entry.tenantId, entry.userId, entry.deviceId), copy(entry));
  }
  async get(tenantId: string, userId: string, deviceId: string) {
    const row = this.rows.get(key(tenantId, userId, deviceId));
    return row && copy(row);
  }
  async listForUser(tenantId: string, userId: string) {
    return [...this.rows.values()]
      .filter((a) => a.tenantId === tenantId && a.userId === userId)
      .sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0))
      .map(copy);
  }
}

/** In-memory user store for the embedded one-machine default and unit tests. */
export function memoryUserStore(): UserStore {
  return {
    users: new MemoryUsers(),
    devices: new MemoryUserDevices(),
    memberships: new MemoryMemberships(),
    deviceAccess: new MemoryDeviceAccess(),
  };
}
