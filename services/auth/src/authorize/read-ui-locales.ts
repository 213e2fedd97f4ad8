const MAX_LOCALES = 10;

function canonical(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * ui_locales: space-separated RFC 5646 tags in order of preference (spec 4.2). It is only a preference, so a
 * tag that is not well formed is dropped instead of failing the request; tags are canonicalized (`de-de` →
 * `de-DE`), kept once, and at most the first ten are kept.
 */
export function readUiLocales(uiLocales: string | undefined): string[] {
  const tags = (uiLocales ?? '').split(' ').filter(Boolean).map(canonical);
  return [...new Set(tags.filter((t): t is string => t !== undefined))].slice(0, MAX_LOCALES);
}
