import {
  type BrandingSettings,
  type BrandingSettingsInput,
  DEFAULT_TEMPLATES,
  type MailKind,
  type MailLocale,
  type MailTemplate,
} from '@sesame/branding';
import type { Clock } from '@sesame/platform';
import type { Logo } from '../../branding/logo';
import type { BrandingRecord, BrandingRepository } from '../../branding/repository';
import { type Emit, adminActivity } from '../../events/admin-events';
import { settingsDiff } from '../../events/diff';

/** Where a change applies: a tenant's branding, or one application's override of it. */
export interface BrandingScope {
  tenantId: string;
  appId?: string;
}
export interface BrandingChangeDeps {
  branding: BrandingRepository;
  clock: Clock;
}

const FIELDS: ReadonlyArray<keyof BrandingSettings> = [
  'displayName',
  'logo',
  'light',
  'dark',
  'cornerStyle',
  'supportUrl',
  'privacyUrl',
  'mailSenderName',
  'mailReplyTo',
];

/** The settings as the API shows them: the logo by type and hash, never its bytes. */
export function settingsOf(record: BrandingRecord | undefined): BrandingSettings {
  if (!record) return {};
  const { logo } = record;
  return {
    ...record.settings,
    ...(logo ? { logo: { contentType: logo.contentType, hash: logo.hash } } : {}),
  };
}

export const brandingView = (scope: BrandingScope, record: BrandingRecord | undefined) => ({
  tenantId: scope.tenantId,
  ...(scope.appId ? { appId: scope.appId } : {}),
  settings: settingsOf(record),
  updatedAt: record?.updatedAt ?? null,
});

/**
 * Writes the next branding of a scope (undefined: back to the default) and publishes
 * administrator_update_branding_authentication with the diff of the settings (the logo as type and hash);
 * nothing is written or published when nothing changes.
 */
async function change(
  deps: BrandingChangeDeps,
  scope: BrandingScope,
  emit: Emit,
  next: (before: BrandingRecord | undefined) => BrandingRecord | undefined,
): Promise<BrandingRecord | undefined> {
  const before = await deps.branding.get(scope.tenantId, scope.appId);
  const after = next(before);
  const diff = settingsDiff(settingsOf(before), settingsOf(after), FIELDS);
  if (!diff) return before;
  if (after) await deps.branding.put(after);
  else await deps.branding.remove(scope.tenantId, scope.appId);
  await emit(scope.tenantId, adminActivity.updateBrandingAuthentication, {
    diff,
    ...(scope.appId ? { appId: scope.appId } : {}),
  });
  return after;
}

const record = (
  deps: BrandingChangeDeps,
  scope: BrandingScope,
  settings: BrandingRecord['settings'],
  logo?: Logo,
): BrandingRecord => ({
  tenantId: scope.tenantId,
  ...(scope.appId ? { appId: scope.appId } : {}),
  settings,
  ...(logo ? { logo } : {}),
  updatedAt: deps.clock.now(),
});

/** Replaces the settings (validated by brandingSettingsSchema); the logo stays. */
export const saveBranding = (
  deps: BrandingChangeDeps,
  scope: BrandingScope,
  settings: BrandingSettingsInput,
  emit: Emit,
) => change(deps, scope, emit, (before) => record(deps, scope, settings, before?.logo));

/** Sets the logo (checked by checkLogo); the settings stay. */
export const saveLogo = (deps: BrandingChangeDeps, scope: BrandingScope, logo: Logo, emit: Emit) =>
  change(deps, scope, emit, (before) => record(deps, scope, before?.settings ?? {}, logo));

export const removeLogo = (deps: BrandingChangeDeps, scope: BrandingScope, emit: Emit) =>
  change(deps, scope, emit, (before) => before && record(deps, scope, before.settings));

/** Back to Sesame's default (settings and logo). */
export const resetBranding = (deps: BrandingChangeDeps, scope: BrandingScope, emit: Emit) =>
  change(deps, scope, emit, () => undefined);

/** The text a tenant's mail is sent with: its own, else the default; `custom` says which. */
export async function mailTemplateOf(
  branding: BrandingRepository,
  tenantId: string,
  kind: MailKind,
  locale: MailLocale,
): Promise<{ template: MailTemplate; custom: boolean }> {
  const own = (await branding.templates(tenantId)).find((t) => t.kind === kind && t.locale === locale);
  return own
    ? { template: own.template, custom: true }
    : { template: DEFAULT_TEMPLATES[locale][kind], custom: false };
}

/**
 * Saves (template given) or resets (null) a tenant's text of one mail; publishes
 * administrator_update_branding_email_template with the diff of the fields and the mail and locale it is
 * for; nothing when nothing changes.
 */
export async function saveMailTemplate(
  deps: BrandingChangeDeps,
  tenantId: string,
  kind: MailKind,
  locale: MailLocale,
  template: MailTemplate | null,
  emit: Emit,
): Promise<{ template: MailTemplate; custom: boolean }> {
  const before = await mailTemplateOf(deps.branding, tenantId, kind, locale);
  const after = template ?? DEFAULT_TEMPLATES[locale][kind];
  const diff = settingsDiff(before.template, after, ['subject', 'preheader', 'heading', 'body', 'button']);
  if (template)
    await deps.branding.putTemplate({ tenantId, kind, locale, template, updatedAt: deps.clock.now() });
  else if (before.custom) await deps.branding.removeTemplate(tenantId, kind, locale);
  if (diff) await emit(tenantId, adminActivity.updateBrandingEmailTemplate, { diff, mail: kind, locale });
  return { template: after, custom: Boolean(template) };
}
