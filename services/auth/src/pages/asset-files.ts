import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { baseCss } from '@sesame/branding';
import { listPageFiles, readPageFile } from './files';

/** Where the flow mounts assetsRouter(); the renderer writes asset URLs under it. */
export const ASSETS_PATH = '/assets';

export interface AssetFile {
  /** As in the source tree, e.g. `sesame.css`, `icons/Payment.svg`. */
  name: string;
  /** With the content hash, e.g. `sesame.1a2b3c4d5e.css`: a deploy that changes the file changes its URL. */
  hashedName: string;
  contentType: string;
  body: Buffer;
  /** Only when gzip is actually smaller. */
  gzip?: Buffer;
}

const contentTypes: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

function hashed(name: string, body: Buffer): string {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const ext = extname(name);
  return `${name.slice(0, -ext.length)}.${hash}${ext}`;
}

let loaded: ReadonlyMap<string, AssetFile> | undefined;

/** The base stylesheet (@sesame/branding's, shared with the console), then every file under ./assets, by name. */
const sources = (): Array<[string, Buffer]> => [
  ['sesame.css', baseCss()],
  ...listPageFiles('assets')
    .filter((name) => contentTypes[extname(name)]) // not directories
    .map((name): [string, Buffer] => [name, readPageFile(`assets/${name}`)]),
];

/** Every asset, by source name; read and hashed once per process. */
export function assetFiles(): ReadonlyMap<string, AssetFile> {
  if (loaded) return loaded;
  const files = new Map<string, AssetFile>();
  for (const [name, body] of sources()) {
    const contentType = contentTypes[extname(name)]!;
    const gzip = gzipSync(body, { level: 9 });
    files.set(name, {
      name,
      hashedName: hashed(name, body),
      contentType,
      body,
      gzip: gzip.length < body.length ? gzip : undefined,
    });
  }
  loaded = files;
  return files;
}
