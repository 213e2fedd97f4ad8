import { createHash } from 'node:crypto';
import { type BrandingSettings, type CornerStyle, buttonLabel } from './settings';

const RADIUS: Record<CornerStyle, string> = { square: '0', rounded: '0.75rem', pill: '1.5rem' };

/**
 * The custom properties a brand sets over the base stylesheet (sesame.css's tokens): accent, its button
 * label, the page background, the corner radius, in light and dark. Empty for a brand that sets none.
 */
export function brandCss(settings: BrandingSettings): string {
  const vars = (accent?: string, background?: string) => {
    const out: string[] = [];
    if (accent) out.push(`--accent:${accent}`, `--accent-text:${buttonLabel(accent)}`, `--focus:${accent}`);
    if (background) out.push(`--bg:${background}`);
    return out;
  };
  // Each scheme's colours only in that scheme: light colours must not reach the dark page's light text.
  const light = vars(settings.light?.accent, settings.light?.background);
  const dark = vars(settings.dark?.accent, settings.dark?.background);
  let css = '';
  if (settings.cornerStyle) css += `:root{--radius:${RADIUS[settings.cornerStyle]}}\n`;
  if (light.length) css += `@media not all and (prefers-color-scheme: dark){:root{${light.join(';')}}}\n`;
  if (dark.length) css += `@media (prefers-color-scheme: dark){:root{${dark.join(';')}}}\n`;
  return css;
}

/** The first 10 hex digits of the sha256 of a body: the content hash in asset URLs. */
export const contentHash = (body: string | Buffer): string =>
  createHash('sha256').update(body).digest('hex').slice(0, 10);

/** Where auth serves brands' files (its brand router's mount point). */
export const BRAND_PATH = '/branding';
const LOGO_EXT: Record<string, string> = { 'image/png': 'png', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

/** The path of a brand's logo on auth_url: by tenant, app ('-' for the tenant's own) and content hash. */
export const logoPath = (tenantId: string, appId: string, contentType: string, hash: string): string =>
  `${BRAND_PATH}/${encodeURIComponent(tenantId)}/${encodeURIComponent(appId || '-')}/logo.${hash}.${LOGO_EXT[contentType] ?? 'img'}`;

/** The path of a brand's stylesheet on auth_url. */
export const stylesheetPath = (tenantId: string, appId: string, hash: string): string =>
  `${BRAND_PATH}/${encodeURIComponent(tenantId)}/${encodeURIComponent(appId || '-')}/style.${hash}.css`;
