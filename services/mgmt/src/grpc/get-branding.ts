import { mergeBranding } from '@sesame/branding';
import type { directory } from '@sesame/proto';
import type { BrandingRepository } from '../branding/repository';

/**
 * GetBranding: the branding of an application's pages and mails (the tenant's, each field the application
 * sets overriding it, the logo included) and the mail templates the tenant changed. A tenant or app without
 * branding answers empty settings: Sesame's own design. Always within the tenant asked for.
 */
export function getBranding(branding: BrandingRepository) {
  return async (request: directory.GetBrandingRequest): Promise<directory.GetBrandingResponse> => {
    const tenant = request.tenantId ? await branding.get(request.tenantId) : undefined;
    const app =
      request.tenantId && request.appId ? await branding.get(request.tenantId, request.appId) : undefined;
    const s = mergeBranding(tenant?.settings, app?.settings);
    const logo = app?.logo ?? tenant?.logo;
    const templates = request.tenantId ? await branding.templates(request.tenantId) : [];
    return {
      branding: {
        displayName: s.displayName ?? '',
        logoContentType: logo?.contentType ?? '',
        logoHash: logo?.hash ?? '',
        logo: logo ? Buffer.from(logo.data) : Buffer.alloc(0),
        light: s.light ? { ...s.light } : undefined,
        dark: s.dark ? { ...s.dark } : undefined,
        cornerStyle: s.cornerStyle ?? '',
        supportUrl: s.supportUrl ?? '',
        privacyUrl: s.privacyUrl ?? '',
        mailSenderName: s.mailSenderName ?? '',
        mailReplyTo: s.mailReplyTo ?? '',
      },
      mailTemplates: templates.map((t) => ({ kind: t.kind, locale: t.locale, ...t.template })),
    };
  };
}
