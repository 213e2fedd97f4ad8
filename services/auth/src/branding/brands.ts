import { gzipSync } from 'node:zlib';
import {
  type BrandingSettings,
  type CornerStyle,
  type LogoType,
  type MailTemplate,
  brandCss,
  contentHash,
} from '@sesame/branding';
import type { directory } from '@sesame/proto';
import { lookupCache } from '../lookup-cache';

/** A generated file of a brand: its body, content hash and (when smaller) gzipped copy. */
export interface BrandFile {
  hash: string;
  contentType: string;
  body: Buffer;
  gzip?: Buffer;
}

/** An application's branding as auth renders it: resolved once per change, then served from memory. */
export interface Brand {
  tenantId: string;
  appId: string;
  displayName?: string;
  /** The base stylesheet with the brand's tokens; absent when the brand sets none (the plain asset serves). */
  stylesheet?: BrandFile;
  logo?: BrandFile;
  supportUrl?: string;
  privacyUrl?: string;
  settings: BrandingSettings;
  /** The tenant's own mail texts by `kind|locale`. */
  templates: Map<string, MailTemplate>;
}

type GetBranding = (tenantId: string, appId: string) => Promise<directory.GetBrandingResponse>;

const file = (contentType: string, body: Buffer): BrandFile => {
  const gzip = gzipSync(body, { level: 9 });
  return { hash: contentHash(body), contentType, body, ...(gzip.length < body.length ? { gzip } : {}) };
};

/** The brand of a GetBranding answer; `baseCss` is the hosted pages' stylesheet the brand's tokens follow. */
export function brandOf(
  tenantId: string,
  appId: string,
  res: directory.GetBrandingResponse,
  baseCss: Buffer,
): Brand {
  const b = res.branding;
  const settings: BrandingSettings = {
    ...(b?.displayName ? { displayName: b.displayName } : {}),
    ...(b?.light?.accent && b.light.background
      ? { light: { accent: b.light.accent, background: b.light.background } }
      : {}),
    ...(b?.dark?.accent && b.dark.background
      ? { dark: { accent: b.dark.accent, background: b.dark.background } }
      : {}),
    ...(b?.cornerStyle ? { cornerStyle: b.cornerStyle as CornerStyle } : {}),
    ...(b?.supportUrl ? { supportUrl: b.supportUrl } : {}),
    ...(b?.privacyUrl ? { privacyUrl: b.privacyUrl } : {}),
    ...(b?.mailSenderName ? { mailSenderName: b.mailSenderName } : {}),
    ...(b?.mailReplyTo ? { mailReplyTo: b.mailReplyTo } : {}),
  };
  const tokens = brandCss(settings);
  const logo =
    b?.logoContentType && b.logo.length
      ? file(b.logoContentType as LogoType, Buffer.from(b.logo))
      : undefined;
  return {
    tenantId,
    appId,
    settings,
    ...(settings.displayName ? { displayName: settings.displayName } : {}),
    ...(tokens
      ? { stylesheet: file('text/css; charset=utf-8', Buffer.concat([baseCss, Buffer.from(`\n${tokens}`)])) }
      : {}),
    ...(logo ? { logo } : {}),
    ...(settings.supportUrl ? { supportUrl: settings.supportUrl } : {}),
    ...(settings.privacyUrl ? { privacyUrl: settings.privacyUrl } : {}),
    templates: new Map(
      res.mailTemplates.map((t) => [
        `${t.kind}|${t.locale}`,
        { subject: t.subject, preheader: t.preheader, heading: t.heading, body: t.body, button: t.button },
      ]),
    ),
  };
}

export interface Brands {
  /** The brand of an application of a tenant (appId '' for the tenant's own), from memory when known. */
  get(tenantId: string, appId: string): Promise<Brand>;
  /** Forgets every brand (on each admin event, like the client cache). */
  clear(): void;
}

/**
 * Brands cached for `ttlMs` and emptied on every admin event (as clients are), so a saved branding shows on
 * the next page; concurrent lookups share one call. Without Directory.GetBranding (older fakes) or when it
 * fails, pages and mails keep Sesame's design: branding never blocks a sign-in.
 */
export function cacheBrands(
  getBranding: GetBranding | undefined,
  baseCss: Buffer,
  ttlMs: number,
  onError: (err: unknown) => void = () => {},
  now: () => number = Date.now,
): Brands {
  const cache = lookupCache<Brand>(ttlMs, now);
  const plain = (tenantId: string, appId: string): Brand => ({
    tenantId,
    appId,
    settings: {},
    templates: new Map(),
  });
  return {
    get(tenantId, appId) {
      if (!getBranding) return Promise.resolve(plain(tenantId, appId));
      return cache.get(`${tenantId}\u0000${appId}`, () =>
        getBranding(tenantId, appId)
          .then((res) => ({ value: brandOf(tenantId, appId, res, baseCss), keep: true }))
          .catch((err: unknown) => {
            onError(err);
            return { value: plain(tenantId, appId), keep: false };
          }),
      );
    },
    clear: () => cache.clear(),
  };
}
