import express, { type Request, type Response, type Router } from 'express';
import type { BrandFile, Brands } from './brands';

/** An image opened on its own is a document: it may run and fetch nothing (inline styles of an SVG only). */
const LOGO_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  // Mail clients show the logo from another origin.
  'Cross-Origin-Resource-Policy': 'cross-origin',
};
const EXT: Record<string, string> = { 'image/png': 'png', 'image/webp': 'webp', 'image/svg+xml': 'svg' };
const CSS_HEADERS = {
  'Content-Security-Policy': "default-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(
  req: Request,
  res: Response,
  file: BrandFile,
  hash: string,
  headers: Record<string, string>,
): void {
  const gzip = file.gzip && req.acceptsEncodings('gzip', 'identity') === 'gzip' ? file.gzip : undefined;
  res.set({
    ...headers,
    'Content-Type': file.contentType,
    // A hashed URL never changes content; an old hash (the brand changed since) gets today's file, revalidated.
    'Cache-Control': hash === file.hash ? 'public, max-age=31536000, immutable' : 'no-cache',
    Vary: 'Accept-Encoding',
  });
  if (gzip) res.set('Content-Encoding', 'gzip');
  res.send(gzip ?? file.body);
}

/**
 * A brand's stylesheet and logo (mount at BRAND_PATH): `/{tenantId}/{appId or -}/style.{hash}.css` and
 * `/{tenantId}/{appId or -}/logo.{hash}.{png|webp|svg}`. The logo is always an image with its own strict
 * headers, never inlined into a page; 404 when the brand has none.
 */
export function brandRouter(brands: Brands): Router {
  const router = express.Router();
  router.get('/:tenantId/:appId/:name', (req, res, next) => {
    const m = /^(style|logo)\.([0-9a-f]{10})\.(css|png|webp|svg)$/.exec(req.params.name ?? '');
    if (!m) return next();
    const appId = req.params.appId === '-' ? '' : req.params.appId!;
    brands
      .get(req.params.tenantId!, appId)
      .then((brand) => {
        const file =
          m[1] === 'style'
            ? m[3] === 'css'
              ? brand.stylesheet
              : undefined
            : brand.logo && EXT[brand.logo.contentType] === m[3]
              ? brand.logo
              : undefined;
        if (!file) return next();
        send(req, res, file, m[2]!, m[1] === 'style' ? CSS_HEADERS : LOGO_HEADERS);
      })
      .catch(next);
  });
  return router;
}
