import { createHash } from 'node:crypto';
import { type BrandingSettings, HEX_COLOUR } from '@sesame/branding';
import type { Request } from 'express';
import { CONSOLE_PATH } from './render';

/**
 * The Branding page's one script (the console's others run none): each colour field's picker
 * (`<input type="color" data-for=…>`, hidden until this runs) and its hex text kept in sync both ways, and the
 * previews (`<iframe data-preview=…>`) reloaded with the colours as typed, unsaved (`live=1`), a moment after
 * the last change. Without script the hex fields work alone and the previews show what is saved.
 */
export const BRANDING_SCRIPT = `(function () {
  var hex = /^#[0-9a-fA-F]{6}$/;
  var pickers = document.querySelectorAll('input[type="color"][data-for]');
  var frames = document.querySelectorAll('iframe[data-preview]');
  var timer;
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var q = new URLSearchParams({ live: '1' });
      pickers.forEach(function (p) {
        var text = document.getElementById(p.dataset.for);
        var v = text.value.trim();
        q.set(text.name, hex.test(v) ? v : '');
      });
      frames.forEach(function (f) { f.src = f.dataset.preview + '&' + q.toString(); });
    }, 300);
  }
  pickers.forEach(function (picker) {
    var text = document.getElementById(picker.dataset.for);
    picker.hidden = false;
    picker.addEventListener('input', function () { text.value = picker.value; preview(); });
    text.addEventListener('input', function () {
      var v = text.value.trim();
      if (hex.test(v)) picker.value = v.toLowerCase();
      preview();
    });
  });
})();
`;

/** Sesame's own colours (sesame.css): an optional colour left empty is this one. */
export const DEFAULT_COLOURS = {
  light: { accent: '#1d4ed8', background: '#f3f4f6' },
  dark: { accent: '#60a5fa', background: '#0b1120' },
} as const;

const NAME = `colours-${createHash('sha256').update(BRANDING_SCRIPT).digest('hex').slice(0, 16)}.js`;
/** The script's route under the console router, and its URL (content-hashed: cached for good). */
export const brandingScriptRoute = `/branding/${NAME}`;
export const brandingScriptPath = `${CONSOLE_PATH}${brandingScriptRoute}`;

/**
 * The colours a live preview shows: with `live=1`, the four fields as typed (an empty or malformed one is
 * Sesame's default, as saving would make it; both empty is no colour of the brand's), else the saved ones.
 */
export function previewSettings(query: Request['query'], saved: BrandingSettings): BrandingSettings {
  if (query.live !== '1') return saved;
  const out: BrandingSettings = Object.fromEntries(
    Object.entries(saved).filter(([key]) => key !== 'light' && key !== 'dark'),
  );
  for (const scheme of ['light', 'dark'] as const) {
    const given = (name: string) => {
      const v = query[`${scheme}${name}`];
      return typeof v === 'string' && HEX_COLOUR.test(v) ? v.toLowerCase() : '';
    };
    const accent = given('Accent');
    const background = given('Background');
    if (accent || background)
      out[scheme] = {
        accent: accent || DEFAULT_COLOURS[scheme].accent,
        background: background || DEFAULT_COLOURS[scheme].background,
      };
  }
  return out;
}
