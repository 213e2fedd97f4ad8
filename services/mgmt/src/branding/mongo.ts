import type { Connection } from '@sesame/mongo';
import { Schema } from 'mongoose';
import type { BrandingRecord, BrandingRepository, MailTemplateRecord } from './repository';

const opts = { versionKey: false, strict: 'throw' } as const;

const brandingSchema = new Schema(
  {
    tenantId: { type: String, required: true },
    /** '' for the tenant's own branding (a unique index cannot tell two absent values apart). */
    appId: { type: String, required: true },
    settings: { type: Schema.Types.Mixed, required: true },
    logo: {
      type: new Schema(
        {
          contentType: { type: String, required: true },
          hash: { type: String, required: true },
          data: { type: Buffer, required: true },
        },
        { _id: false },
      ),
      required: false,
    },
    updatedAt: { type: Number, required: true },
  },
  { ...opts, minimize: false },
);
brandingSchema.index({ tenantId: 1, appId: 1 }, { unique: true });

const templateSchema = new Schema(
  {
    tenantId: { type: String, required: true },
    kind: { type: String, required: true },
    locale: { type: String, required: true },
    template: { type: Schema.Types.Mixed, required: true },
    updatedAt: { type: Number, required: true },
  },
  opts,
);
templateSchema.index({ tenantId: 1, kind: 1, locale: 1 }, { unique: true });

type Doc = Record<string, unknown> & { _id?: unknown };

function toRecord(doc: Doc): BrandingRecord {
  const { _id, appId, logo, ...rest } = doc as Doc & {
    appId: string;
    logo?: { data: unknown } & Record<string, unknown>;
  };
  const record = { ...rest, ...(appId ? { appId } : {}) } as unknown as BrandingRecord;
  if (logo) {
    const data = logo.data as { buffer?: ArrayBuffer } | Buffer;
    record.logo = {
      ...(logo as unknown as BrandingRecord['logo'] & object),
      data: Buffer.isBuffer(data) ? Buffer.from(data) : Buffer.from((data as { buffer: Uint8Array }).buffer),
    };
  }
  return record;
}

/** Branding on MongoDB (collections `branding` and `mail_templates`). */
export function mongoBranding(conn: Connection): BrandingRepository {
  const Branding = conn.model('Branding', brandingSchema, 'branding');
  const Templates = conn.model('MailTemplate', templateSchema, 'mail_templates');
  return {
    async get(tenantId, appId) {
      const doc = await Branding.findOne({ tenantId, appId: appId ?? '' }).lean();
      return doc ? toRecord(doc as unknown as Doc) : undefined;
    },
    async put(record) {
      const doc = { ...record, appId: record.appId ?? '' };
      await Branding.replaceOne({ tenantId: record.tenantId, appId: doc.appId }, doc, { upsert: true });
    },
    async remove(tenantId, appId) {
      return (await Branding.deleteOne({ tenantId, appId: appId ?? '' })).deletedCount === 1;
    },
    async templates(tenantId) {
      const docs = await Templates.find({ tenantId }, { _id: 0 }).sort({ kind: 1, locale: 1 }).lean();
      return docs as unknown as MailTemplateRecord[];
    },
    async putTemplate(record) {
      const { tenantId, kind, locale } = record;
      await Templates.replaceOne({ tenantId, kind, locale }, record, { upsert: true });
    },
    async removeTemplate(tenantId, kind, locale) {
      return (await Templates.deleteOne({ tenantId, kind, locale })).deletedCount === 1;
    },
  };
}
