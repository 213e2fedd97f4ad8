import type { Connection } from '@sesame/mongo';
import { type Model, Schema } from 'mongoose';
import type { KeyStatus, KeyUse, PublicJwk, StoredKey } from './key';
import type { KeyRepository } from './key.repository';

interface KeyDoc {
  kid: string;
  use: KeyUse;
  alg: string;
  generation: number;
  publicJwk: { kty: 'RSA' | 'EC'; n?: string; e?: string; crv?: string; x?: string; y?: string };
  x5c: string[];
  privateKeyEnc: { iv: string; tag: string; ciphertext: string; kekId: string };
  status: KeyStatus;
  createdAt: Date;
  activatedAt?: Date | null;
  retiredAt?: Date | null;
  retireAfter?: Date | null;
}

const keySchema = new Schema<KeyDoc>(
  {
    kid: { type: String, required: true },
    use: { type: String, required: true, enum: ['sig', 'enc'] },
    alg: { type: String, required: true },
    generation: { type: Number, required: true },
    publicJwk: {
      kty: { type: String, required: true, enum: ['RSA', 'EC'] },
      // RSA keys: n, e; EC (ES256) keys: crv, x, y.
      n: String,
      e: String,
      crv: String,
      x: String,
      y: String,
    },
    x5c: { type: [String], required: true },
    privateKeyEnc: {
      iv: { type: String, required: true },
      tag: { type: String, required: true },
      ciphertext: { type: String, required: true },
      kekId: { type: String, required: true },
    },
    status: { type: String, required: true, enum: ['pending', 'active', 'retired'] },
    createdAt: { type: Date, required: true },
    activatedAt: Date,
    retiredAt: Date,
    retireAfter: Date,
  },
  { collection: 'jwks_keys', versionKey: false, _id: true },
);
keySchema.index({ kid: 1 }, { unique: true });
// The guard that makes "create the next key" safe on several pods: only one key per (use, generation).
keySchema.index({ use: 1, generation: 1 }, { unique: true });

/**
 * One document per state change of a key, _id `<kid>:<status>`. Inserting it is the claim: the unique _id
 * lets exactly one pod make each change, on MongoDB and on Mongo-wire servers (FerretDB) where a
 * conditional updateOne is not an atomic compare-and-set under concurrency. It also records the change's
 * values, so a pod that lost the claim (or a claimant that crashed before updating the key) applies the
 * same values: every pod converges on one activatedAt / retireAfter.
 */
interface TransitionDoc {
  _id: string;
  kid: string;
  set: { status: KeyStatus; activatedAt?: Date; retiredAt?: Date; retireAfter?: Date };
}
const transitionSchema = new Schema<TransitionDoc>(
  {
    _id: { type: String, required: true },
    kid: { type: String, required: true, index: true },
    set: { type: Schema.Types.Mixed, required: true },
  },
  { collection: 'jwks_key_transitions', versionKey: false },
);

const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;
const ms = (d?: Date | null) => (d ? d.getTime() : undefined);
const date = (n?: number) => (n === undefined ? undefined : new Date(n));

function publicJwkOf(jwk: KeyDoc['publicJwk']): PublicJwk {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && jwk.x && jwk.y)
    return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  if (jwk.kty === 'RSA' && jwk.n && jwk.e) return { kty: 'RSA', n: jwk.n, e: jwk.e };
  throw new Error(`stored key with an incomplete ${jwk.kty} public key`);
}

function toKey(doc: KeyDoc): StoredKey {
  const key: StoredKey = {
    kid: doc.kid,
    use: doc.use,
    alg: doc.alg,
    generation: doc.generation,
    publicJwk: publicJwkOf(doc.publicJwk),
    x5c: [...doc.x5c],
    privateKeyEnc: { ...doc.privateKeyEnc },
    status: doc.status,
    createdAt: doc.createdAt.getTime(),
  };
  if (doc.activatedAt) key.activatedAt = ms(doc.activatedAt);
  if (doc.retiredAt) key.retiredAt = ms(doc.retiredAt);
  if (doc.retireAfter) key.retireAfter = ms(doc.retireAfter);
  return key;
}

/** Mongo adapter: state changes are single-document conditional updates (no transactions needed). */
export class MongoKeyRepository implements KeyRepository {
  private constructor(
    private readonly model: Model<KeyDoc>,
    private readonly transitions: Model<TransitionDoc>,
  ) {}

  /** Registers the models on this connection and waits for their unique indexes (the guards depend on them). */
  static async open(conn: Connection): Promise<MongoKeyRepository> {
    const model =
      (conn.models.JwksKey as Model<KeyDoc> | undefined) ?? conn.model<KeyDoc>('JwksKey', keySchema);
    const transitions =
      (conn.models.JwksKeyTransition as Model<TransitionDoc> | undefined) ??
      conn.model<TransitionDoc>('JwksKeyTransition', transitionSchema);
    await Promise.all([model.init(), transitions.init()]);
    return new MongoKeyRepository(model, transitions);
  }

  async insert(key: StoredKey): Promise<boolean> {
    try {
      await this.model.create({
        ...key,
        createdAt: new Date(key.createdAt),
        activatedAt: date(key.activatedAt),
        retiredAt: date(key.retiredAt),
        retireAfter: date(key.retireAfter),
      });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async list(): Promise<StoredKey[]> {
    const docs = await this.model.find({}).sort({ use: 1, generation: 1 }).lean<KeyDoc[]>();
    return docs.map(toKey);
  }

  async activate(kid: string, activatedAt: number): Promise<boolean> {
    return this.transition(kid, 'pending', { status: 'active', activatedAt: new Date(activatedAt) });
  }

  async retire(kid: string, retiredAt: number, retireAfter: number): Promise<boolean> {
    return this.transition(kid, 'active', {
      status: 'retired',
      retiredAt: new Date(retiredAt),
      retireAfter: new Date(retireAfter),
    });
  }

  private async transition(kid: string, from: KeyStatus, wanted: TransitionDoc['set']): Promise<boolean> {
    if (!(await this.model.exists({ kid, status: from }))) return false;
    const _id = `${kid}:${wanted.status}`;
    let set = wanted;
    let won = true;
    try {
      await this.transitions.create({ _id, kid, set });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      won = false;
      const claimed = await this.transitions.findById(_id).lean<TransitionDoc>();
      if (!claimed) return false;
      set = claimed.set;
    }
    await this.model.updateOne({ kid, status: from }, { $set: set });
    return won;
  }

  async deleteExpired(now: number): Promise<number> {
    const expired = { status: 'retired', retireAfter: { $lte: new Date(now) } };
    const kids = (await this.model.find(expired, { kid: 1 }).lean<Array<{ kid: string }>>()).map(
      (d) => d.kid,
    );
    if (kids.length === 0) return 0;
    const res = await this.model.deleteMany({ ...expired, kid: { $in: kids } });
    await this.transitions.deleteMany({ kid: { $in: kids } });
    return res.deletedCount;
  }
}
