import { logoPath, stylesheetPath } from '@sesame/branding';
import type { Brand } from './brands';

/** Where brandRouter() is mounted: a brand's stylesheet and logo live under it, by tenant, app and hash. */
export { BRAND_PATH } from '@sesame/branding';

/** The brand's stylesheet under its content hash, or undefined when the brand sets no colours or corners. */
export const stylesheetUrl = (brand: Brand): string | undefined =>
  brand.stylesheet ? stylesheetPath(brand.tenantId, brand.appId, brand.stylesheet.hash) : undefined;

/** The logo under its content hash (relative; mails put auth_url in front). */
export const logoUrl = (brand: Brand): string | undefined =>
  brand.logo ? logoPath(brand.tenantId, brand.appId, brand.logo.contentType, brand.logo.hash) : undefined;

/** What the layout shows of the brand: the name in the header and title, the logo, the links. */
export interface PageBrand {
  name: string;
  logoUrl: string;
  stylesheet: string;
  supportUrl: string;
  privacyUrl: string;
}

/** The page brand of an app: its display name, else the app's own name (the title of every page). */
export function pageBrandOf(brand: Brand, appName: string): Partial<PageBrand> & { name: string } {
  return {
    name: brand.displayName || appName,
    logoUrl: logoUrl(brand) ?? '',
    stylesheet: stylesheetUrl(brand) ?? '',
    supportUrl: brand.supportUrl ?? '',
    privacyUrl: brand.privacyUrl ?? '',
  };
}
