import type { KeyValueStore } from '@sesame/kv';
import type { Connection } from '@sesame/mongo';
import { Schema } from 'mongoose';
import { lockedMembershipUpdate } from './membership-lock';
import type { AppMembership, DeviceAccess, User, UserDevice } from './model';
import {
  type DeviceAccessRepository,
  DuplicateUserError,
  type MembershipRepository,
  type UserDeviceRepository,
  type UserRepository,
  type UserStore,
  prefixEnd,
} from './users.repository';

const opts = { versionKey: false, strict: 'throw' } as const;

const userSchema = new Schema(
  {
    userId: { type: String, required: true, unique: true },
    email: { type: String, unique: true, sparse: true },
    createdAt: { type: Number, required: true },
    emailVerifiedAt: Number,
    phoneNumber: String,
    phoneVerifiedAt: Number,
    lastSeenAt: Number,
    // tenantId → epoch ms (users/model.ts): set and unset one tenant at a time.
    disabledIn: { type: Map, of: Number },
  },
  opts,
);
// Newest first, the user id breaking ties (support's keyset list of people, issue 38).
userSchema.index({ createdAt: -1, userId: -1 });

const userDeviceSchema = new Schema(
  {
    userId: { type: String, required: true },
    deviceId: { type: String, required: true },
    registeredAt: { type: Number, required: true },
    lastSeenAt: { type: Number, required: true },
    facts: {
      deviceName: { type: String, required: true },
      osType: { type: String, required: true },
      osVersion: { type: String, required: true },
      browserType: { type: String, required: true },
      browserVersion: { type: String, required: true },
    },
  },
  opts,
);
userDeviceSchema.index({ userId: 1, deviceId: 1 }, { unique: true });
// A person's devices, oldest first (listForUser: support's user page).
userDeviceSchema.index({ userId: 1, registeredAt: 1 });

const membershipSchema = new Schema(
  {
    tenantId: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    alias: String,
    acrValues: { type: [String], default: [] },
    customData: Schema.Types.Mixed,
    confirmed: { type: Boolean, required: true },
    firstLoginAt: { type: Number, required: true },
    lastLoginAt: { type: Number, required: true },
    firstConfirmedLoginAt: Number,
    firstConfirmedLoginPending: Boolean,
    boundCredentials: { type: [String], default: undefined },
    boundDevices: { type: [String], default: undefined },
    consentedScopes: { type: [String], default: undefined },
    // Keyed by device id: { firstLoginAt, lastLoginAt }.
    deviceLogins: Schema.Types.Mixed,
  },
  { ...opts, minimize: false },
);
membershipSchema.index({ tenantId: 1, appId: 1, userId: 1 }, { unique: true });
// A person's memberships and an alias's, in first-login order (listForUser, findByAlias: query-shapes.ts).
membershipSchema.index({ tenantId: 1, userId: 1, firstLoginAt: 1 });
membershipSchema.index({ tenantId: 1, alias: 1, firstLoginAt: 1 });

// One row per claimed alias: the unique index makes "alias unique per application" atomic across pods.
const aliasSchema = new Schema(
  {
    tenantId: { type: String, required: true },
    appId: { type: String, required: true },
    alias: { type: String, required: true },
    userId: { type: String, required: true },
  },
  opts,
);
aliasSchema.index({ tenantId: 1, appId: 1, alias: 1 }, { unique: true });
aliasSchema.index({ tenantId: 1, userId: 1 });

const deviceAccessSchema = new Schema(
  {
    tenantId: { type: String, required: true },
    userId: { type: String, required: true },
    deviceId: { type: String, required: true },
    allowAccess: { type: Boolean, required: true },
    changedAt: { type: Number, required: true },
  },
  opts,
);
deviceAccessSchema.index({ tenantId: 1, userId: 1, deviceId: 1 }, { unique: true });

/** Each collection's declared index keys (the index test checks the shapes of query-shapes.ts against them). */
export function userStoreIndexes(): Record<string, Record<string, 1 | -1>[]> {
  const keysOf = (schema: Schema) => schema.indexes().map(([fields]) => fields as Record<string, 1 | -1>);
  return {
    users: [{ userId: 1 }, { email: 1 }, ...keysOf(userSchema)],
    user_devices: keysOf(userDeviceSchema),
    app_memberships: keysOf(membershipSchema),
    device_access: keysOf(deviceAccessSchema),
  };
}

const hidden = { _id: 0 } as const;

function clean<T>(doc: unknown): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (k !== '_id' && v !== null && v !== undefined) out[k] = v;
  }
  return out as T;
}

function withoutUndefined(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * User store on MongoDB. Models are registered on the given connection, never on the global mongoose. `locks`
 * (the service's KV store: Redis) serializes the read-change-write of a membership (membership-lock.ts).
 */
export function mongoUserStore(conn: Connection, locks: KeyValueStore): UserStore {
  const Users = conn.model('User', userSchema, 'users');
  const UserDevices = conn.model('UserDevice', userDeviceSchema, 'user_devices');
  const Memberships = conn.model('AppMembership', membershipSchema, 'app_memberships');
  const Aliases = conn.model('AppAlias', aliasSchema, 'app_aliases');
  const Devices = conn.model('DeviceAccess', deviceAccessSchema, 'device_access');

  const users: UserRepository = {
    async create(user) {
      try {
        await Users.create(withoutUndefined(user));
      } catch (err) {
        if ((err as { code?: unknown }).code === 11000) {
          throw new DuplicateUserError(String((err as Error).message).includes('email') ? 'email' : 'userId');
        }
        throw err;
      }
    },
    async get(userId) {
      const doc = await Users.findOne({ userId }, hidden).lean();
      return doc ? clean<User>(doc) : undefined;
    },
    async findByEmail(email) {
      const doc = await Users.findOne({ email }, hidden).lean();
      return doc ? clean<User>(doc) : undefined;
    },
    async getMany(userIds) {
      if (!userIds.length) return [];
      const docs = await Users.find({ userId: { $in: [...new Set(userIds)] } }, hidden).lean();
      return docs.map((d) => clean<User>(d));
    },
    async update(userId, patch) {
      const res = await Users.updateOne({ userId }, { $set: withoutUndefined(patch) });
      return res.matchedCount > 0;
    },
    async setDisabled(userId, tenantId, at) {
      // One tenant's entry only, atomically: another tenant's decision made at the same time stands.
      if (!/^[\w-]+$/.test(tenantId)) throw new Error('a tenant id is letters, digits, _ and -');
      const path = `disabledIn.${tenantId}`;
      const res = await Users.updateOne(
        { userId },
        at === undefined ? { $unset: { [path]: 1 } } : { $set: { [path]: at } },
      );
      return res.matchedCount > 0;
    },
    async listNewest(limit, before) {
      // (createdAt, userId) < before, as two branches each served by the { createdAt: -1, userId: -1 } index.
      const filter = before
        ? {
            $or: [
              { createdAt: { $lt: before.createdAt } },
              { createdAt: before.createdAt, userId: { $lt: before.userId } },
            ],
          }
        : {};
      const docs = await Users.find(filter, hidden).sort({ createdAt: -1, userId: -1 }).limit(limit).lean();
      return docs.map((d) => clean<User>(d));
    },
    async findByEmailPrefix(prefix, limit, after) {
      // A range on the unique email index (addresses are stored lower-cased): never a $regex of typed text.
      const start = prefix.toLowerCase();
      if (!start) return [];
      const low = after === undefined ? { $gte: start } : { $gt: after };
      const docs = await Users.find({ email: { ...low, $lt: prefixEnd(start) } }, hidden)
        .sort({ email: 1 })
        .limit(limit)
        .lean();
      return docs.map((d) => clean<User>(d));
    },
    async removePhone(userId) {
      const res = await Users.updateOne({ userId }, { $unset: { phoneNumber: 1, phoneVerifiedAt: 1 } });
      return res.matchedCount > 0;
    },
  };

  const devices: UserDeviceRepository = {
    async save(device: UserDevice) {
      const { userId, deviceId } = device;
      await UserDevices.replaceOne({ userId, deviceId }, device, { upsert: true });
    },
    async get(userId, deviceId) {
      const doc = await UserDevices.findOne({ userId, deviceId }, hidden).lean();
      return doc ? clean<UserDevice>(doc) : undefined;
    },
    async listForUser(userId) {
      const docs = await UserDevices.find({ userId }, hidden).sort({ registeredAt: 1 }).lean();
      return docs.map((d) => clean<UserDevice>(d));
    },
  };

  const memberships: MembershipRepository = {
    async save(m) {
      const { tenantId, appId, userId } = m;
      await Memberships.replaceOne({ tenantId, appId, userId }, withoutUndefined(m), { upsert: true });
    },
    async get(tenantId, appId, userId) {
      const doc = await Memberships.findOne({ tenantId, appId, userId }, hidden).lean();
      return doc ? clean<AppMembership>(doc) : undefined;
    },
    update(tenantId, appId, userId, change) {
      return lockedMembershipUpdate(locks, memberships, { tenantId, appId, userId }, change);
    },
    async listForUser(tenantId, userId, appId) {
      const filter = appId ? { tenantId, userId, appId } : { tenantId, userId };
      const docs = await Memberships.find(filter, hidden).sort({ firstLoginAt: 1 }).lean();
      return docs.map((d) => clean<AppMembership>(d));
    },
    async findByAlias(tenantId, alias, appId) {
      const filter = appId ? { tenantId, alias, appId } : { tenantId, alias };
      const docs = await Memberships.find(filter, hidden).sort({ firstLoginAt: 1 }).lean();
      return docs.map((d) => clean<AppMembership>(d));
    },
    async findByUsersOrAlias(tenantId, userIds, alias, aliasAppId) {
      // One branch per index (query-shapes.test.ts): (tenantId, userId) and (tenantId, alias), app residual.
      const byAlias = aliasAppId ? { tenantId, alias, appId: aliasAppId } : { tenantId, alias };
      const filter = userIds.length
        ? { $or: [{ tenantId, userId: { $in: [...new Set(userIds)] } }, byAlias] }
        : byAlias;
      const docs = await Memberships.find(filter, hidden).lean();
      // A handful of rows (one person's memberships, an alias's): ordered here, not by the server.
      return docs.map((d) => clean<AppMembership>(d)).sort((a, b) => a.firstLoginAt - b.firstLoginAt);
    },
    async remove(tenantId, userId, appId) {
      const filter = appId ? { tenantId, userId, appId } : { tenantId, userId };
      const res = await Memberships.deleteMany(filter);
      await Aliases.deleteMany(filter);
      return res.deletedCount;
    },
    async claimAlias(tenantId, appId, alias, userId) {
      try {
        await Aliases.create({ tenantId, appId, alias, userId });
        return true;
      } catch (err) {
        if ((err as { code?: unknown }).code !== 11000) throw err;
        const owner = await Aliases.findOne({ tenantId, appId, alias }, hidden).lean();
        return owner?.userId === userId;
      }
    },
    async releaseAlias(tenantId, appId, alias, userId) {
      await Aliases.deleteOne({ tenantId, appId, alias, userId });
    },
  };

  const deviceAccess: DeviceAccessRepository = {
    async set(entry: DeviceAccess) {
      const { tenantId, userId, deviceId } = entry;
      await Devices.replaceOne({ tenantId, userId, deviceId }, entry, { upsert: true });
    },
    async get(tenantId, userId, deviceId) {
      const doc = await Devices.findOne({ tenantId, userId, deviceId }, hidden).lean();
      return doc ? clean<DeviceAccess>(doc) : undefined;
    },
    async listForUser(tenantId, userId) {
      const docs = await Devices.find({ tenantId, userId }, hidden).sort({ deviceId: 1 }).lean();
      return docs.map((d) => clean<DeviceAccess>(d));
    },
  };

  return { users, devices, memberships, deviceAccess };
}
