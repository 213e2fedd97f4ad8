import Handlebars from 'handlebars';
import { type Locale, type MessageVars, translate } from '../i18n';
import { ASSETS_PATH, assetFiles } from './asset-files';
import { contexts } from './contexts';
import { listPageFiles, readPageFile } from './files';
import { PAGE_NAMES, type PageName, type PageViews } from './views';

export interface PageRenderer {
  /** The complete HTML document; the caller sets the status and hostedPageHeaders(). */
  render<P extends PageName>(page: P, locale: Locale, view: PageViews[P]): string;
}

// strict: a field the context lacks throws instead of printing nothing; knownHelpersOnly: a typo in
// a helper name fails at compile time.
const compileOptions: CompileOptions = {
  strict: true,
  knownHelpers: { t: true, asset: true },
  knownHelpersOnly: true,
};

/**
 * Reads and compiles every template once. `assetBase` is where assetsRouter() is mounted.
 */
export function createPageRenderer(options: { assetBase?: string } = {}): PageRenderer {
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
    const source = readPageFile(path).toString('utf8');
    // Handlebars compiles lazily on first use; precompiling here surfaces template errors at startup.
    hb.precompile(source, compileOptions);
    return hb.compile(source, compileOptions);
  };
  for (const file of listPageFiles('layout').filter((name) => name.endsWith('.hbs'))) {
    hb.registerPartial(file.slice(0, -'.hbs'.length), compile(`layout/${file}`));
  }
  const templates = new Map(PAGE_NAMES.map((page) => [page, compile(`${page}/${page}.hbs`)]));

  return {
    render(page, locale, view) {
      const context = contexts[page](view, { locale, assetUrl });
      return templates.get(page)!({
        scripts: [],
        ...context,
        locale,
        stylesheet: assetUrl('sesame.css'),
      });
    },
  };
}
