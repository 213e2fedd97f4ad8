import type { EmbeddedStore, Migration } from '@sesame/embedded-store';
import { SqliteDocs } from '../directory/sqlite-docs';
import type { BrandingRecord, BrandingRepository, MailTemplateRecord } from './repository';

/**
 * Branding in the embedded default's durable engine (component `mgmt.branding`): the pages' and mails' branding
 * of tenants and applications (a logo's bytes in a BLOB beside the document) and the tenants' mail templates.
 */
const MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE mgmt_branding (tenant_id TEXT NOT NULL, app_id TEXT NOT NULL, logo BLOB, doc TEXT NOT NULL,
        PRIMARY KEY (tenant_id, app_id)) STRICT;
      CREATE TABLE mgmt_mail_templates (tenant_id TEXT NOT NULL, kind TEXT NOT NULL, locale TEXT NOT NULL,
        doc TEXT NOT NULL, PRIMARY KEY (tenant_id, kind, locale)) STRICT;
    `),
];

/** The record as stored in `doc`: the logo without its bytes. */
type BrandingDoc = Omit<BrandingRecord, 'logo'> & {
  logo?: Omit<NonNullable<BrandingRecord['logo']>, 'data'>;
};

export function sqliteBranding(store: EmbeddedStore): BrandingRepository {
  store.migrate('mgmt.branding', MIGRATIONS);
  const { db } = store;
  // '' for the tenant's own branding: a primary key cannot tell two absent values apart.
  const records = new SqliteDocs<BrandingDoc>(db, 'mgmt_branding', (r) => ({
    tenant_id: r.tenantId,
    app_id: r.appId ?? '',
  }));
  const templates = new SqliteDocs<MailTemplateRecord>(
    db,
    'mgmt_mail_templates',
    (t) => ({ tenant_id: t.tenantId, kind: t.kind, locale: t.locale }),
    'kind, locale',
  );
  const putLogo = db.prepare<[Buffer | null, string, string]>(
    'UPDATE mgmt_branding SET logo = ? WHERE tenant_id = ? AND app_id = ?',
  );
  const getLogo = db
    .prepare<[string, string], Buffer | null>(
      'SELECT logo FROM mgmt_branding WHERE tenant_id = ? AND app_id = ?',
    )
    .pluck();
  const mine = 'tenant_id = ? AND app_id = ?';
  return {
    async get(tenantId, appId) {
      return records.atomic(() => {
        const doc = records.one(mine, tenantId, appId ?? '');
        if (!doc) return undefined;
        const { logo, ...rest } = doc;
        const data = getLogo.get(tenantId, appId ?? '');
        // Copied into a Buffer of this realm (the driver's is made where the native module was loaded).
        return logo && data ? { ...rest, logo: { ...logo, data: Buffer.from(data) } } : rest;
      });
    },
    async put(record) {
      const { logo, ...rest } = record;
      const { data, ...meta } = logo ?? { data: undefined };
      const doc: BrandingDoc = logo ? { ...rest, logo: meta as NonNullable<BrandingDoc['logo']> } : rest;
      records.atomic(() => {
        records.upsert(doc);
        putLogo.run(data ? Buffer.from(data) : null, record.tenantId, record.appId ?? '');
      });
    },
    remove: async (tenantId, appId) => records.delete(mine, tenantId, appId ?? '') === 1,
    templates: async (tenantId) => templates.all('tenant_id = ?', tenantId),
    putTemplate: async (record) => templates.upsert(record),
    removeTemplate: async (tenantId, kind, locale) =>
      templates.delete('tenant_id = ? AND kind = ? AND locale = ?', tenantId, kind, locale) === 1,
  };
}
