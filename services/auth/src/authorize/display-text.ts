/**
 * Characters a person cannot see or compare in text shown to them (binding_message, svc_custom_message, the
 * SMS custom message): Unicode format characters (category Cf: bidi overrides and isolates, zero-width
 * joiners and spaces, the BOM), line and paragraph separators (Zl, Zp), private-use characters (Co) and
 * controls (Cc). Any of them could make the text read differently from what it is.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}]/u;

export const hasHiddenCharacters = (text: string): boolean => HIDDEN.test(text);
