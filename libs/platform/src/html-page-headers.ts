/**
 * Response headers of a server-rendered HTML page: a Content-Security-Policy that loads nothing but the
 * page's own images and stylesheets (plus `directives`, e.g. script-src, form-action), and no framing,
 * caching, referrer or MIME sniffing.
 */
export function htmlPageHeaders(directives: readonly string[]): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "img-src 'self' data:",
      "style-src 'self'",
      ...directives,
    ].join('; '),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Content-Type': 'text/html; charset=utf-8',
  };
}
