import { readFileSync } from 'node:fs';
import { LOCALES, type Locale } from './locale';

export type Catalog = Readonly<Record<string, string>>;

/**
 * Catalogs are read next to this module: from sources that is ./catalogs, and in the bundle, where
 * every module's import.meta.url is main.mjs, scripts/build.mjs copies them to catalogs/ beside it.
 */
function loadCatalog(locale: Locale): Catalog {
  const text = readFileSync(new URL(`./catalogs/${locale}.json`, import.meta.url), 'utf8');
  return Object.freeze(JSON.parse(text) as Record<string, string>);
}

export const catalogs: Readonly<Record<Locale, Catalog>> = Object.freeze(
  Object.fromEntries(LOCALES.map((locale) => [locale, loadCatalog(locale)])) as Record<Locale, Catalog>,
);

/** A key a page or email asked for that a catalog lacks: a bug to fail on, never text to show. */
export class MissingMessageError extends Error {
  constructor(locale: Locale, key: string, detail = 'no such key') {
    super(`i18n ${locale}: ${key}: ${detail}`);
    this.name = 'MissingMessageError';
  }
}

export type MessageVars = Readonly<Record<string, string | number>>;

const placeholder = /\{(\w+)\}/g;

/**
 * The catalog text for `key` with `{name}` placeholders filled in. Plain text: callers that build
 * HTML escape it (the page renderer does). Missing keys and missing variables throw.
 */
export function translate(locale: Locale, key: string, vars: MessageVars = {}): string {
  const text = Object.hasOwn(catalogs[locale], key) ? catalogs[locale][key] : undefined;
  if (text === undefined) throw new MissingMessageError(locale, key);
  return text.replace(placeholder, (_, name: string) => {
    if (!Object.hasOwn(vars, name)) throw new MissingMessageError(locale, key, `no value for {${name}}`);
    return String(vars[name]);
  });
}

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => htmlEscapes[c] ?? c);
}

/**
 * For the catalog's HTML entries (email bodies): the catalog text is trusted markup, the values are not,
 * so each value is HTML-escaped before it is filled in.
 */
export function translateHtml(locale: Locale, key: string, vars: MessageVars = {}): string {
  const escaped = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, escapeHtml(String(v))]));
  return translate(locale, key, escaped);
}

export function hasMessage(key: string): boolean {
  return Object.hasOwn(catalogs.en, key);
}

/** The placeholder names a catalog text uses, sorted (the catalog tests compare them across languages). */
export function placeholders(text: string): string[] {
  return [...text.matchAll(placeholder)].map((m) => m[1] ?? '').sort();
}
