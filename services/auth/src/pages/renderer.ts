import Handlebars from 'handlebars';
import type { PageBrand } from '../branding/brand-urls';
import { type Locale, type MessageVars, translate } from '../i18n';
import { readSourceFile } from '../source-files';
import { ASSETS_PATH, assetFiles } from './asset-files';
import { contexts } from './contexts';
import { listPageFiles } from './files';
import { type StencilRenderer, stencilRenderer } from './stencil';
import { TEMPLATE_FILES } from './template-files';
import { PAGE_NAMES, type PageName, type PageViews } from './views';

export interface PageRenderer {
  /**
   * The complete HTML document; the caller sets the status and hostedPageHeaders(). With `brand` (an app's
   * flow), the page shows its name or logo, its links and stylesheet, and the app's name in the title.
   */
  render<P extends PageName>(page: P, locale: Locale, view: PageViews[P], brand?: Partial<PageBrand>): string;
}

// strict: a field the context lacks throws instead of printing nothing; knownHelpersOnly: a typo in
// a helper name fails at compile time.
const compileOptions: CompileOptions = {
  strict: true,
  knownHelpers: { t: true, asset: true },
  knownHelpersOnly: true,
};

/**
 * Context fields of a page that change from one request to the next (dotted paths): the page is rendered
 * once per locale and shape and these are filled in (stencil.ts). Pages not listed render with Handlebars
 * each time. The identify page is the first page of every sign-in (GET /authorize).
 */
export const STENCIL_HOLES: Partial<Record<PageName, string[]>> = {
  identify: ['appName', 'action', 'csrf', 'email', 'passkey.optionsUrl', 'passkey.verifyUrl', 'mobileAction'],
};

/**
 * The layout's fields that vary per app (its brand), holes of every stenciled page besides its own, so the
 * pages of many brands share one stencil per shape.
 */
export const LAYOUT_HOLES = [
  'stylesheet',
  'brand.name',
  'brand.logoUrl',
  'brand.supportUrl',
  'brand.privacyUrl',
];

/**
 * Reads and compiles every template once. `assetBase` is where assetsRouter() is mounted; `stencils: false`
 * renders every page with Handlebars (the stencil tests compare both).
 */
export function createPageRenderer(options: { assetBase?: string; stencils?: boolean } = {}): PageRenderer {
  const assetBase = options.assetBase ?? ASSETS_PATH;
  const assets = assetFiles();
  const assetUrl = (name: string): string => {
    const file = assets.get(name);
    if (!file) throw new Error(`no asset ${name}`);
    return `${assetBase}/${file.hashedName}`;
  };

  const hb = Handlebars.create();
  hb.registerHelper('t', (key: string, helper: Handlebars.HelperOptions) =>
    translate(helper.data.root.locale, key, helper.hash as MessageVars),
  );
  hb.registerHelper('asset', (name: string) => assetUrl(name));
  const compile = (path: string) => {
    const source = readSourceFile(path).toString('utf8');
    // Handlebars compiles lazily on first use; precompiling here surfaces template errors at startup.
    hb.precompile(source, compileOptions);
    return hb.compile(source, compileOptions);
  };
  for (const file of listPageFiles('layout').filter((name) => name.endsWith('.hbs'))) {
    hb.registerPartial(file.slice(0, -'.hbs'.length), compile(`pages/layout/${file}`));
  }
  const templates = new Map(PAGE_NAMES.map((page) => [page, compile(TEMPLATE_FILES[page])]));
  const stylesheet = assetUrl('sesame.css');
  const stencils = new Map<PageName, StencilRenderer>();
  for (const page of PAGE_NAMES) {
    const holes = STENCIL_HOLES[page];
    if (holes && options.stencils !== false)
      stencils.set(
        page,
        stencilRenderer([...holes, ...LAYOUT_HOLES], templates.get(page)!, hb.Utils.escapeExpression),
      );
  }

  return {
    render(page, locale, view, brand) {
      const context = {
        scripts: [],
        ...contexts[page](view, { locale, assetUrl }),
        locale,
        stylesheet: brand?.stylesheet || stylesheet,
        brand: {
          name: brand?.name ?? '',
          logoUrl: brand?.logoUrl ?? '',
          supportUrl: brand?.supportUrl ?? '',
          privacyUrl: brand?.privacyUrl ?? '',
        },
      };
      const stencil = stencils.get(page);
      return stencil ? stencil.render(`${page}|${locale}`, context) : templates.get(page)!(context);
    },
  };
}
