import type { BrandingSettings, MailKind, MailLocale, MailTemplate } from '@sesame/branding';
import type { Logo } from './logo';

/** The branding of a tenant (appId absent) or of one of its applications (an override of the tenant's). */
export interface BrandingRecord {
  tenantId: string;
  appId?: string;
  /** Without `logo`: the logo is `logo` below, with its bytes. */
  settings: Omit<BrandingSettings, 'logo'>;
  logo?: Logo;
  updatedAt: number;
}

/** A tenant's own text of one mail in one locale (absent: Sesame's default, DEFAULT_TEMPLATES). */
export interface MailTemplateRecord {
  tenantId: string;
  kind: MailKind;
  locale: MailLocale;
  template: MailTemplate;
  updatedAt: number;
}

/** Port of the branding store (mgmt owns it; auth reads it through Directory.GetBranding). Tenant id everywhere. */
export interface BrandingRepository {
  get(tenantId: string, appId?: string): Promise<BrandingRecord | undefined>;
  /** Replaces the record of (tenantId, appId). */
  put(record: BrandingRecord): Promise<void>;
  /** Back to the default; whether there was a record. */
  remove(tenantId: string, appId?: string): Promise<boolean>;
  /** The tenant's own mail templates, in kind and locale order. */
  templates(tenantId: string): Promise<MailTemplateRecord[]>;
  putTemplate(record: MailTemplateRecord): Promise<void>;
  /** Back to the default text; whether there was one. */
  removeTemplate(tenantId: string, kind: MailKind, locale: MailLocale): Promise<boolean>;
}
