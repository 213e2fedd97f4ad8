/** WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio) of #rrggbb colours. */

export const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

function channel(hex: string, offset: number): number {
  const c = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  if (!HEX_COLOUR.test(hex)) throw new Error(`not a #rrggbb colour: ${hex}`);
  return 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
}

/** The contrast ratio of two colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A ratio as people read it: two decimals, rounded down so 4.499 never shows as 4.50. */
export const formatRatio = (ratio: number): string => `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;

/** WCAG AA: text (SC 1.4.3) and the boundaries of buttons and other controls (SC 1.4.11). */
export const AA_TEXT = 4.5;
export const AA_UI = 3;
