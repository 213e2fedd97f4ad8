/** The languages the hosted pages and emails are written in; English is the fallback. */
export const LOCALES = ['en', 'de', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

function supported(tag: string): Locale | undefined {
  // `de-CH` and `de` both mean German to us: only the primary subtag picks a catalog.
  const primary = tag.trim().toLowerCase().split('-')[0] ?? '';
  return (LOCALES as readonly string[]).includes(primary) ? (primary as Locale) : undefined;
}

/** Accept-Language ranges by descending q (stable for equal q), q=0 and `*` left out. */
function acceptLanguageTags(header: string): string[] {
  const ranges = header.split(',').map((part, index) => {
    const [tag, ...params] = part.split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return { tag: (tag ?? '').trim(), weight: Number.isFinite(weight) ? weight : 0, index };
  });
  return ranges
    .filter((r) => r.weight > 0 && r.tag !== '' && r.tag !== '*')
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((r) => r.tag);
}

/**
 * OIDC `ui_locales` first, in the order the client gave them, then the browser's Accept-Language by
 * preference, then English.
 */
export function negotiateLocale(uiLocales: string[], acceptLanguage: string | undefined): Locale {
  for (const tag of [...uiLocales, ...acceptLanguageTags(acceptLanguage ?? '')]) {
    const locale = supported(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
