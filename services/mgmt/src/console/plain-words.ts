import { type ConsoleLocale, consoleCatalogs } from '../i18n';

/** What kind of identifier a value is, and the catalog prefix of its plain words (i18n-words.ts). */
const PREFIX = {
  event: 'event',
  method: 'methodName',
  flowType: 'flowType',
  status: 'status',
} as const;
export type WordKind = keyof typeof PREFIX;

/** The catalog key of `raw`'s plain words (for a template's `t`), or undefined for a value we do not know. */
export function wordKey(kind: WordKind, raw: string): string | undefined {
  const key = `${PREFIX[kind]}.${raw}`;
  return key in consoleCatalogs.en ? key : undefined;
}

/**
 * An identifier as the console shows it: its plain words, and the raw value for the title (support asks by
 * it). An unknown value (a newer event than this console) is shown as it is.
 */
export function plainWords(
  locale: ConsoleLocale,
  kind: WordKind,
  raw: string,
): { label: string; raw: string } {
  const key = wordKey(kind, raw);
  return { label: key ? (consoleCatalogs[locale][key] ?? raw) : raw, raw };
}
