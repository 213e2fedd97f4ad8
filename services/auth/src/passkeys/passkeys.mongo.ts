import type { Connection } from '@sesame/mongo';
import { Schema } from 'mongoose';
import type { Passkey } from './model';
import { DuplicatePasskeyError, type PasskeyRepository } from './passkeys.repository';

const passkeySchema = new Schema(
  {
    credentialId: { type: String, required: true, unique: true },
    userId: { type: String, required: true },
    deviceId: { type: String, required: true },
    publicKey: { type: String, required: true },
    counter: { type: Number, required: true },
    transports: { type: [String], default: [] },
    aaguid: { type: String, required: true },
    backupEligible: { type: Boolean, required: true },
    backedUp: { type: Boolean, required: true },
    createdAt: { type: Number, required: true },
    lastUsedAt: Number,
    status: { type: String, required: true, enum: ['active', 'suspected'] },
  },
  { versionKey: false, strict: 'throw' },
);

// A person's passkeys, oldest first (listForUser: sign-in and support's user page).
passkeySchema.index({ userId: 1, createdAt: 1 });

/** The declared index keys (the index test checks the query shapes against them). */
export const passkeyIndexes = (): Record<string, 1 | -1>[] => [
  { credentialId: 1 },
  ...passkeySchema.indexes().map(([fields]) => fields as Record<string, 1 | -1>),
];

const hidden = { _id: 0 } as const;

function clean(doc: unknown): Passkey {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (k !== '_id' && v !== null && v !== undefined) out[k] = v;
  }
  return out as unknown as Passkey;
}

/** Passkeys on MongoDB (collection `passkeys`), on the given connection, never on the global mongoose. */
export function mongoPasskeyStore(conn: Connection): PasskeyRepository {
  const Passkeys = conn.model('Passkey', passkeySchema, 'passkeys');
  return {
    async create(passkey) {
      try {
        await Passkeys.create(Object.fromEntries(Object.entries(passkey).filter(([, v]) => v !== undefined)));
      } catch (err) {
        if ((err as { code?: unknown }).code === 11000) throw new DuplicatePasskeyError();
        throw err;
      }
    },
    async get(credentialId) {
      const doc = await Passkeys.findOne({ credentialId }, hidden).lean();
      return doc ? clean(doc) : undefined;
    },
    async listForUser(userId) {
      const docs = await Passkeys.find({ userId }, hidden).sort({ createdAt: 1 }).lean();
      return docs.map(clean);
    },
    async recordUse(credentialId, use) {
      const res = await Passkeys.updateOne(
        { credentialId },
        { $set: { counter: use.counter, backedUp: use.backedUp, lastUsedAt: use.at } },
      );
      return res.matchedCount > 0;
    },
    async markSuspected(credentialId) {
      const res = await Passkeys.updateOne({ credentialId }, { $set: { status: 'suspected' } });
      return res.matchedCount > 0;
    },
    async remove(credentialId) {
      const res = await Passkeys.deleteOne({ credentialId });
      return res.deletedCount > 0;
    },
  };
}
