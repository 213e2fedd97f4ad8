import type { MailKind, MailLocale } from '@sesame/branding';
import type { BrandingRecord, BrandingRepository, MailTemplateRecord } from './repository';

const key = (...parts: string[]) => parts.join('\u0000');
const copy = <T>(v: T): T => structuredClone(v);
const sameOrder = (a: MailTemplateRecord, b: MailTemplateRecord) =>
  a.kind.localeCompare(b.kind) || a.locale.localeCompare(b.locale);

/** In-memory branding for the embedded default and unit tests; hands out copies only. */
export function memoryBranding(): BrandingRepository {
  const records = new Map<string, BrandingRecord>();
  const templates = new Map<string, MailTemplateRecord>();
  return {
    async get(tenantId, appId) {
      const row = records.get(key(tenantId, appId ?? ''));
      return (
        row && {
          ...copy(row),
          ...(row.logo ? { logo: { ...row.logo, data: Buffer.from(row.logo.data) } } : {}),
        }
      );
    },
    async put(record) {
      const row = copy(record);
      if (record.logo) row.logo = { ...record.logo, data: Buffer.from(record.logo.data) };
      records.set(key(record.tenantId, record.appId ?? ''), row);
    },
    async remove(tenantId, appId) {
      return records.delete(key(tenantId, appId ?? ''));
    },
    async templates(tenantId) {
      return [...templates.values()]
        .filter((t) => t.tenantId === tenantId)
        .sort(sameOrder)
        .map(copy);
    },
    async putTemplate(record) {
      templates.set(key(record.tenantId, record.kind, record.locale), copy(record));
    },
    async removeTemplate(tenantId: string, kind: MailKind, locale: MailLocale) {
      return templates.delete(key(tenantId, kind, locale));
    },
  };
}
