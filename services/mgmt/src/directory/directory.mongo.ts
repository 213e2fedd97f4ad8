import type { Connection } from '@sesame/mongo';
import { type FilterQuery, type Model, Schema } from 'mongoose';
import { mongoBranding } from '../branding/mongo';
import {
  type AdminRepository,
  type ApplicationRepository,
  type CredentialsRepository,
  type DirectoryRepositories,
  DuplicateKeyError,
  type TenantRepository,
} from './directory.repository';
import type { Admin, ApiCredentials, Application, ApplicationPatch, Tenant } from './model';

const opts = { versionKey: false, strict: 'throw' } as const;

const tenantSchema = new Schema(
  {
    tenantId: { type: String, required: true, unique: true },
    name: { type: String, required: true },
    createdAt: { type: Number, required: true, index: true },
    updatedAt: { type: Number, required: true },
    blockedCountries: { type: [String], default: undefined },
  },
  opts,
);

const cibaSchema = new Schema(
  {
    mode: { type: String, required: true },
    notificationEndpoint: String,
    strictErrors: { type: Boolean, required: true },
    expiresIn: Number,
  },
  { _id: false },
);

const refreshTokensSchema = new Schema(
  {
    enabled: { type: Boolean, required: true },
    absoluteLifetimeS: { type: Number, required: true },
    idleLifetimeS: { type: Number, required: true },
  },
  { _id: false },
);

const applicationSchema = new Schema(
  {
    tenantId: { type: String, required: true },
    appId: { type: String, required: true, unique: true },
    name: { type: String, required: true },
    clientId: { type: String, required: true, unique: true },
    clientType: { type: String, required: true },
    clientSecretHash: String,
    clientSecretSealed: String,
    redirectUris: { type: [String], default: undefined },
    allowedScopes: { type: [String], default: undefined },
    ciba: { type: cibaSchema, required: true },
    auxLinkPrefix: String,
    registrationRedirectUri: String,
    registrationLinkExpiresIn: Number,
    refreshTokens: { type: refreshTokensSchema, required: false },
    postLogoutRedirectUris: { type: [String], default: undefined },
    backchannelLogoutUri: String,
    backchannelLogoutSessionRequired: Boolean,
    firstParty: Boolean,
    tokenEndpointAuthMethod: String,
    // A JWK Set as given (validated by the admin API): kept as a plain object.
    jwks: { type: Schema.Types.Mixed, required: false },
    jwksUri: String,
    requirePushedAuthorizationRequests: Boolean,
    requestObjectSigningAlg: String,
    dpopBoundAccessTokens: Boolean,
    tlsClientAuthSubjectDn: String,
    tlsClientCertificateBoundAccessTokens: Boolean,
    idTokenSignedResponseAlg: String,
    backchannelAuthenticationRequestSigningAlg: String,
    securityProfile: String,
    createdAt: { type: Number, required: true },
    updatedAt: { type: Number, required: true },
  },
  opts,
);
applicationSchema.index({ tenantId: 1, appId: 1 }, { unique: true });
applicationSchema.index({ tenantId: 1, createdAt: 1 });

const credentialsSchema = new Schema(
  {
    tenantId: { type: String, required: true },
    credentialsId: { type: String, required: true, unique: true },
    secretHash: { type: String, required: true },
    createdAt: { type: Number, required: true },
    revokedAt: Number,
  },
  opts,
);
credentialsSchema.index({ tenantId: 1, credentialsId: 1 }, { unique: true });
credentialsSchema.index({ tenantId: 1, createdAt: 1 });

const adminSchema = new Schema(
  {
    email: { type: String, required: true, unique: true },
    createdAt: { type: Number, required: true, index: true },
    lastSeenAt: { type: Number, required: true },
  },
  opts,
);

const hidden = { _id: 0 } as const;

function isDuplicate(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

function duplicateField(err: unknown, fields: string[]): string {
  const text = String((err as { message?: unknown }).message ?? '');
  return fields.find((f) => text.includes(f)) ?? fields[0]!;
}

/** Strips what Mongo adds (_id) and what is absent. (FerretDB does not take projections on findAndModify.) */
function clean<T>(doc: unknown): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (k === '_id' || v === null || v === undefined) continue;
    out[k] = v;
  }
  if (out.ciba) out.ciba = clean(out.ciba);
  if (out.refreshTokens) out.refreshTokens = clean(out.refreshTokens);
  return out as T;
}

/** Inserts a document; a unique-index violation is a DuplicateKeyError naming the field `field` picks. */
async function insertUnique(
  model: { create(doc: object): Promise<unknown> },
  doc: object,
  field: (err: unknown) => string,
): Promise<void> {
  try {
    await model.create(doc);
  } catch (err) {
    if (isDuplicate(err)) throw new DuplicateKeyError(field(err));
    throw err;
  }
}

/** A document, or undefined for none, without Mongo's own members (clean). */
const cleanOrNone = <T>(doc: unknown): T | undefined => (doc ? clean<T>(doc) : undefined);

/** The document `filter` finds, cleaned; undefined for none. */
async function findClean<T, D>(model: Model<D>, filter: FilterQuery<D>): Promise<T | undefined> {
  return cleanOrNone<T>(await model.findOne(filter, hidden).lean());
}

/** Every document `filter` finds, oldest first, cleaned. */
async function listClean<T, D>(model: Model<D>, filter: FilterQuery<D>): Promise<T[]> {
  const docs = await model.find(filter, hidden).sort({ createdAt: 1 }).lean();
  return docs.map((d) => clean<T>(d));
}

/** `undefined` values in a patch clear the field. */
function toUpdate(patch: Record<string, unknown>): Record<string, unknown> {
  const $set: Record<string, unknown> = {};
  const $unset: Record<string, ''> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) $unset[k] = '';
    else $set[k] = v;
  }
  return Object.keys($unset).length ? { $set, $unset } : { $set };
}

/** Directory on MongoDB. Models are registered on the given connection, never on the global mongoose. */
export function mongoDirectory(conn: Connection): DirectoryRepositories {
  const Tenants = conn.model('Tenant', tenantSchema, 'tenants');
  const Applications = conn.model('Application', applicationSchema, 'applications');
  const Credentials = conn.model('ApiCredentials', credentialsSchema, 'api_credentials');
  const Admins = conn.model('Admin', adminSchema, 'admins');

  const tenants: TenantRepository = {
    create: (tenant) => insertUnique(Tenants, tenant, () => 'tenantId'),
    get: (tenantId) => findClean(Tenants, { tenantId }),
    list: () => listClean(Tenants, {}),
    async update(tenantId, patch) {
      const doc = await Tenants.findOneAndUpdate({ tenantId }, { $set: patch }, { new: true }).lean();
      return cleanOrNone<Tenant>(doc);
    },
    async remove(tenantId) {
      const res = await Tenants.deleteOne({ tenantId });
      return res.deletedCount === 1;
    },
  };

  const applications: ApplicationRepository = {
    create: (app) => insertUnique(Applications, app, (err) => duplicateField(err, ['clientId', 'appId'])),
    get: (tenantId, appId) => findClean(Applications, { tenantId, appId }),
    list: (tenantId) => listClean(Applications, { tenantId }),
    async update(tenantId, appId, patch: ApplicationPatch) {
      const doc = await Applications.findOneAndUpdate({ tenantId, appId }, toUpdate(patch), {
        new: true,
      }).lean();
      return cleanOrNone<Application>(doc);
    },
    async replaceSecret(tenantId, appId, secret) {
      const doc = await Applications.findOneAndUpdate(
        { tenantId, appId, clientType: 'confidential' },
        { $set: secret },
        { new: true },
      ).lean();
      return cleanOrNone<Application>(doc);
    },
    async setClientType(tenantId, appId, change) {
      const write =
        change.clientType === 'public'
          ? { ...change, clientSecretHash: undefined, clientSecretSealed: undefined }
          : change;
      const doc = await Applications.findOneAndUpdate({ tenantId, appId }, toUpdate(write), {
        new: true,
      }).lean();
      return cleanOrNone<Application>(doc);
    },
    async remove(tenantId, appId) {
      const doc = await Applications.findOneAndDelete({ tenantId, appId }).lean();
      return cleanOrNone<Application>(doc);
    },
    findByClientId: (clientId) => findClean(Applications, { clientId }),
  };

  const credentials: CredentialsRepository = {
    create: (creds) => insertUnique(Credentials, creds, () => 'credentialsId'),
    get: (tenantId, credentialsId) => findClean(Credentials, { tenantId, credentialsId }),
    list: (tenantId) => listClean(Credentials, { tenantId }),
    async revoke(tenantId, credentialsId, at) {
      const doc = await Credentials.findOneAndUpdate(
        { tenantId, credentialsId, revokedAt: null },
        { $set: { revokedAt: at } },
        { new: true },
      ).lean();
      return cleanOrNone<ApiCredentials>(doc);
    },
    findById: (credentialsId) => findClean(Credentials, { credentialsId }),
  };

  const admins: AdminRepository = {
    async touch(email, at) {
      await Admins.updateOne(
        { email },
        { $setOnInsert: { createdAt: at }, $max: { lastSeenAt: at } },
        { upsert: true },
      );
    },
    list: () => listClean(Admins, {}),
  };

  return { tenants, applications, credentials, admins, branding: mongoBranding(conn) };
}
