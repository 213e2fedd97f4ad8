import { DEFAULT_TEMPLATES, type MailKind, type MailLocale, mailLocales, renderMail } from '@sesame/branding';
import type { OutgoingMail } from '@sesame/mail';
import { logoUrl } from './brand-urls';
import type { Brands } from './brands';
import type { BrandedFlow } from './with-brand';

/** Sesame's own accents (sesame.css), for a brand that sets none. */
const ACCENT = { light: '#1d4ed8', dark: '#60a5fa' };

/**
 * One of auth's mails for an app: the tenant's text of this mail in this locale (else Sesame's default) in
 * the one mail layout, with the brand's name, logo (from auth_url), accents, links, sender name and reply-to.
 * `values` fill the template's placeholders. {{app}} is the application's name, as its pages say it ("Sign
 * in to Shop"), unless given; only a mail of no known application says the brand's (the tenant's) display name.
 * The header names the brand (its display name, else the app's name), as the pages' header does.
 */
export async function brandedMail(
  deps: { brands?: Brands; authUrl: string },
  app: BrandedFlow,
  kind: MailKind,
  locale: string,
  to: string,
  values: Record<string, string>,
): Promise<OutgoingMail> {
  const brand = deps.brands ? await deps.brands.get(app.tenantId, app.appId) : undefined;
  const lang: MailLocale = (mailLocales as readonly string[]).includes(locale)
    ? (locale as MailLocale)
    : 'en';
  const template = brand?.templates.get(`${kind}|${lang}`) ?? DEFAULT_TEMPLATES[lang][kind];
  const name = brand?.displayName || app.appName;
  const appName = app.appName || brand?.displayName || '';
  const logo = brand && logoUrl(brand);
  const s = brand?.settings ?? {};
  const mail = renderMail({
    kind,
    locale: lang,
    template,
    values: { app: appName, ...values },
    brand: {
      name,
      accentLight: s.light?.accent ?? ACCENT.light,
      accentDark: s.dark?.accent ?? ACCENT.dark,
      ...(logo ? { logoUrl: `${deps.authUrl.replace(/\/+$/, '')}${logo}` } : {}),
      ...(s.supportUrl ? { supportUrl: s.supportUrl } : {}),
      ...(s.privacyUrl ? { privacyUrl: s.privacyUrl } : {}),
    },
  });
  return {
    to,
    ...mail,
    ...(s.mailSenderName ? { fromName: s.mailSenderName } : {}),
    ...(s.mailReplyTo ? { replyTo: s.mailReplyTo } : {}),
    // for the logs, which name a mail by these and never by its subject or body (they carry codes and links)
    kind,
    locale: lang,
    tenantId: app.tenantId,
  };
}
