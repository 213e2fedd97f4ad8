import type { Connection } from '@sesame/mongo';
import { Schema } from 'mongoose';
import { DuplicateKeyError } from '../directory/directory.repository';
import type { AdminAccount, Invitation, PersonalApiToken } from './model';
import type {
  AdminAccountRepository,
  AdminsRepositories,
  ApiTokenRepository,
  InvitationRepository,
} from './repository';

const opts = { versionKey: false, strict: 'throw' } as const;
const hidden = { _id: 0 } as const;

const accountSchema = new Schema(
  {
    tenantId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, required: true },
    createdAt: { type: Number, required: true },
    lastSignInAt: Number,
  },
  opts,
);
accountSchema.index({ tenantId: 1, email: 1 }, { unique: true });
accountSchema.index({ email: 1, createdAt: 1 });
accountSchema.index({ role: 1 });

const invitationSchema = new Schema(
  {
    invitationId: { type: String, required: true, unique: true },
    tenantId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, required: true },
    tokenHash: { type: String, required: true, unique: true },
    invitedBy: { type: String, required: true },
    createdAt: { type: Number, required: true },
    expiresAt: { type: Number, required: true },
    acceptedAt: Number,
    cancelledAt: Number,
    cancelledBy: String,
    cancelReason: String,
  },
  opts,
);
invitationSchema.index({ tenantId: 1, createdAt: 1 });
// cancelOpen: the open invitations to one address, and those made by one person, in a tenant.
invitationSchema.index({ tenantId: 1, email: 1 });
invitationSchema.index({ tenantId: 1, invitedBy: 1 });

const tokenSchema = new Schema(
  {
    tokenId: { type: String, required: true, unique: true },
    tenantId: { type: String, required: true },
    email: { type: String, required: true },
    name: { type: String, required: true },
    tokenHash: { type: String, required: true, unique: true },
    createdAt: { type: Number, required: true },
    expiresAt: { type: Number, required: true },
    revokedAt: Number,
    lastUsedAt: Number,
  },
  opts,
);
tokenSchema.index({ tenantId: 1, email: 1, createdAt: 1 });
// An Owner's view: every administrator's tokens of the tenant, oldest first.
tokenSchema.index({ tenantId: 1, createdAt: 1 });

/** Strips what Mongo adds (_id) and what is absent. */
function clean<T>(doc: unknown): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (k !== '_id' && v !== null && v !== undefined) out[k] = v;
  }
  return out as T;
}
const cleanOrNone = <T>(doc: unknown): T | undefined => (doc ? clean<T>(doc) : undefined);

async function insertUnique(model: { create(doc: object): Promise<unknown> }, doc: object, what: string) {
  try {
    await model.create(doc);
  } catch (err) {
    if ((err as { code?: unknown }).code === 11000) throw new DuplicateKeyError(what);
    throw err;
  }
}

/** Administrators on MongoDB; models are registered on the given connection. */
export function mongoAdmins(conn: Connection): AdminsRepositories {
  const Accounts = conn.model('AdminAccount', accountSchema, 'admin_accounts');
  const Invitations = conn.model('AdminInvitation', invitationSchema, 'admin_invitations');
  const Tokens = conn.model('AdminApiToken', tokenSchema, 'admin_tokens');

  const accounts: AdminAccountRepository = {
    create: (account) => insertUnique(Accounts, account, 'administrator'),
    async get(tenantId, email) {
      return cleanOrNone<AdminAccount>(await Accounts.findOne({ tenantId, email }, hidden).lean());
    },
    async list(tenantId) {
      const docs = await Accounts.find({ tenantId }, hidden).sort({ createdAt: 1 }).lean();
      return docs.map((d) => clean<AdminAccount>(d));
    },
    async listByEmail(email) {
      const docs = await Accounts.find({ email }, hidden).sort({ createdAt: 1 }).lean();
      return docs.map((d) => clean<AdminAccount>(d));
    },
    async setRole(tenantId, email, role) {
      const doc = await Accounts.findOneAndUpdate(
        { tenantId, email },
        { $set: { role } },
        { new: true },
      ).lean();
      return cleanOrNone<AdminAccount>(doc);
    },
    async remove(tenantId, email) {
      return cleanOrNone<AdminAccount>(await Accounts.findOneAndDelete({ tenantId, email }).lean());
    },
    countOwners: (tenantId) => Accounts.countDocuments({ tenantId, role: 'owner' }),
    async anyOwner() {
      return Boolean(await Accounts.exists({ role: 'owner' }));
    },
    async touch(tenantId, email, at) {
      await Accounts.updateOne({ tenantId, email }, { $max: { lastSignInAt: at } });
    },
  };

  const invitations: InvitationRepository = {
    create: (invitation) => insertUnique(Invitations, invitation, 'invitation'),
    async findByTokenHash(tokenHash) {
      return cleanOrNone<Invitation>(await Invitations.findOne({ tokenHash }, hidden).lean());
    },
    async get(tenantId, invitationId) {
      return cleanOrNone<Invitation>(await Invitations.findOne({ invitationId, tenantId }, hidden).lean());
    },
    async markAccepted(invitationId, at) {
      const doc = await Invitations.findOneAndUpdate(
        { invitationId, acceptedAt: null, cancelledAt: null },
        { $set: { acceptedAt: at } },
        { new: true },
      ).lean();
      return cleanOrNone<Invitation>(doc);
    },
    async list(tenantId) {
      const docs = await Invitations.find({ tenantId }, hidden).sort({ createdAt: 1 }).lean();
      return docs.map((d) => clean<Invitation>(d));
    },
    async cancel(tenantId, invitationId, { at, by, reason }) {
      const doc = await Invitations.findOneAndUpdate(
        { invitationId, tenantId, acceptedAt: null, cancelledAt: null },
        { $set: { cancelledAt: at, cancelledBy: by, cancelReason: reason } },
        { new: true },
      ).lean();
      return cleanOrNone<Invitation>(doc);
    },
    async cancelOpen(tenantId, who, { at, by, reason }) {
      const whose = 'to' in who ? { email: who.to } : { invitedBy: who.by };
      const res = await Invitations.updateMany(
        { tenantId, ...whose, acceptedAt: null, cancelledAt: null },
        { $set: { cancelledAt: at, cancelledBy: by, cancelReason: reason } },
      );
      return res.modifiedCount;
    },
  };

  const tokens: ApiTokenRepository = {
    create: (token) => insertUnique(Tokens, token, 'token'),
    async findByHash(tokenHash) {
      return cleanOrNone<PersonalApiToken>(await Tokens.findOne({ tokenHash }, hidden).lean());
    },
    async list(tenantId, email) {
      const filter = email === undefined ? { tenantId } : { tenantId, email };
      const docs = await Tokens.find(filter, hidden).sort({ createdAt: 1 }).lean();
      return docs.map((d) => clean<PersonalApiToken>(d));
    },
    async revoke(tenantId, email, tokenId, at) {
      const doc = await Tokens.findOneAndUpdate(
        { tokenId, tenantId, ...(email === undefined ? {} : { email }), revokedAt: null },
        { $set: { revokedAt: at } },
        { new: true },
      ).lean();
      return cleanOrNone<PersonalApiToken>(doc);
    },
    async revokeAllOf(tenantId, email, at) {
      const res = await Tokens.updateMany({ tenantId, email, revokedAt: null }, { $set: { revokedAt: at } });
      return res.modifiedCount;
    },
    async touch(tokenId, at) {
      await Tokens.updateOne({ tokenId }, { $max: { lastUsedAt: at } });
    },
  };

  return { accounts, invitations, tokens };
}
