import { z } from 'zod';

/**
 * Characters no name shown to people may hold: C0 and C1 controls (CR/LF, TAB, NUL, DEL, NEL…), the Unicode
 * line and paragraph separators, the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069:
 * "gpj.exe" shown as "exe.jpg"), and zero-width characters (U+200B–U+200F, U+2060, U+FEFF) that make two
 * names look alike. A CR/LF in a name put into a mail subject would start a new header.
 */
export const UNSAFE_DISPLAY_CHARS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: reason: control characters are exactly what this refuses
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: reason: the breaking characters of UNSAFE_DISPLAY_CHARS
const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** Half of a surrogate pair alone: text mangled by a broken encoding (JSON's "\uD800" escape allows it). */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const DISPLAY_TEXT_MESSAGE = 'must not contain control, bidi-override or zero-width characters';

/**
 * "Display text" at every edge (admin API bodies, console forms): a tenant, application, token or brand name.
 * Checked for UNSAFE_DISPLAY_CHARS and lone surrogates before trimming (a trailing CR/LF is refused, not silently dropped), then
 * trimmed, non-empty and at most `max` characters.
 */
export function displayText(max: number) {
  return z
    .string()
    .refine((s) => !UNSAFE_DISPLAY_CHARS.test(s), DISPLAY_TEXT_MESSAGE)
    .refine((s) => !LONE_SURROGATE.test(s), 'must be well-formed Unicode text')
    .transform((s) => s.trim())
    .pipe(z.string().min(1, 'must not be empty').max(max));
}

/**
 * A stored value made safe for one line (a mail subject, a header): older data saved before displayText
 * existed may still hold controls. Line breaks and controls become one space; bidi and zero-width characters
 * are dropped.
 */
export function oneLineValue(s: string): string {
  return s.replace(INVISIBLE, '').replace(BREAKING, ' ');
}
