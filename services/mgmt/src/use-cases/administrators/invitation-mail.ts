import { DEFAULT_TEMPLATES, type MailLocale, logoPath, renderMail } from '@sesame/branding';
import type { BrandingRepository } from '../../branding/repository';
import type { Tenant } from '../../directory/model';
import { mailTemplateOf } from '../branding/branding-changes';

/**
 * The administrator invitation in the one mail layout, in the language the inviter chose for the invitee: the
 * tenant's text of it in that language (else Sesame's), its name or display name, logo (served by auth),
 * accents, links, sender name and reply-to.
 */
export async function invitationMail(
  deps: { branding?: BrandingRepository; authUrl?: string },
  tenant: Tenant,
  to: string,
  values: Record<string, string>,
  locale: MailLocale = 'en',
) {
  const record = deps.branding ? await deps.branding.get(tenant.tenantId) : undefined;
  const { template } = deps.branding
    ? await mailTemplateOf(deps.branding, tenant.tenantId, 'admin-invitation', locale)
    : { template: DEFAULT_TEMPLATES[locale]['admin-invitation'] };
  const s = record?.settings ?? {};
  const logo =
    record?.logo && deps.authUrl
      ? `${deps.authUrl.replace(/\/+$/, '')}${logoPath(tenant.tenantId, '', record.logo.contentType, record.logo.hash)}`
      : undefined;
  const mail = renderMail({
    kind: 'admin-invitation',
    locale,
    template,
    values,
    brand: {
      name: s.displayName || tenant.name,
      accentLight: s.light?.accent ?? '#1d4ed8',
      accentDark: s.dark?.accent ?? '#60a5fa',
      ...(logo ? { logoUrl: logo } : {}),
      ...(s.supportUrl ? { supportUrl: s.supportUrl } : {}),
      ...(s.privacyUrl ? { privacyUrl: s.privacyUrl } : {}),
    },
  });
  return {
    to,
    ...mail,
    ...(s.mailSenderName ? { fromName: s.mailSenderName } : {}),
    ...(s.mailReplyTo ? { replyTo: s.mailReplyTo } : {}),
    // for the logs, which name a mail by these and never by its subject or body (it carries the invitation link)
    kind: 'admin-invitation',
    locale,
    tenantId: tenant.tenantId,
  };
}
