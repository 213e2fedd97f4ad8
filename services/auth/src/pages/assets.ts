import express, { type Router } from 'express';
import { type AssetFile, assetFiles } from './asset-files';

const hashedPattern = /^(.+)\.[0-9a-f]{10}(\.[a-z]+)$/;

/**
 * Serves the stylesheet, scripts and icons under their content-hashed names (mount at ASSETS_PATH).
 * A hashed URL never changes content, so it is cached for a year. A page rendered by the previous
 * release during a rolling deploy asks for an old hash: it gets today's file, revalidated each time,
 * rather than an unstyled page.
 */
export function assetsRouter(): Router {
  const files = assetFiles();
  const byHashedName = new Map<string, AssetFile>([...files.values()].map((f) => [f.hashedName, f]));
  const router = express.Router();
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const requested = req.path.slice(1);
    const exact = byHashedName.get(requested);
    const stale = hashedPattern.exec(requested);
    const file = exact ?? (stale ? files.get(`${stale[1]}${stale[2]}`) : undefined);
    if (!file) return next();
    const gzip = file.gzip && req.acceptsEncodings('gzip', 'identity') === 'gzip' ? file.gzip : undefined;
    res.set({
      'Content-Type': file.contentType,
      'Cache-Control': exact ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
      // An SVG opened on its own is a document: it may run nothing.
      'Content-Security-Policy': "default-src 'none'",
      Vary: 'Accept-Encoding',
    });
    if (gzip) res.set('Content-Encoding', 'gzip');
    res.send(gzip ?? file.body);
  });
  return router;
}
