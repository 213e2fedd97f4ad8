import { parseDocument } from 'htmlparser2';

/**
 * A strict allow-list SVG cleaner: the logo is parsed as XML and written anew from the elements and
 * attributes below only; everything else (script, foreignObject, style, image, a, animation, event handlers,
 * any reference outside the document, comments, processing instructions, DOCTYPE and its entities) is
 * dropped. A reference may only name an element of the same document (`#id`, `url(#id)`).
 */
const ELEMENTS = new Set(
  [
    'svg',
    'g',
    'path',
    'rect',
    'circle',
    'ellipse',
    'line',
    'polyline',
    'polygon',
    'text',
    'tspan',
    'defs',
    'lineargradient',
    'radialgradient',
    'stop',
    'title',
    'desc',
    'clippath',
    'mask',
    'symbol',
    'use',
  ].map((n) => n.toLowerCase()),
);
const ATTRIBUTES = new Set(
  [
    'id',
    'd',
    'x',
    'y',
    'x1',
    'y1',
    'x2',
    'y2',
    'cx',
    'cy',
    'r',
    'rx',
    'ry',
    'fx',
    'fy',
    'width',
    'height',
    'viewbox',
    'fill',
    'fill-opacity',
    'fill-rule',
    'clip-rule',
    'stroke',
    'stroke-width',
    'stroke-linecap',
    'stroke-linejoin',
    'stroke-miterlimit',
    'stroke-dasharray',
    'stroke-dashoffset',
    'stroke-opacity',
    'opacity',
    'transform',
    'points',
    'offset',
    'stop-color',
    'stop-opacity',
    'gradientunits',
    'gradienttransform',
    'spreadmethod',
    'preserveaspectratio',
    'version',
    'font-family',
    'font-size',
    'font-weight',
    'font-style',
    'text-anchor',
    'dominant-baseline',
    'letter-spacing',
    'clip-path',
    'mask',
    'maskunits',
    'clippathunits',
    'href',
    'xlink:href',
    'role',
    'aria-label',
    'aria-hidden',
    'dx',
    'dy',
  ].map((n) => n.toLowerCase()),
);
const LOCAL_REF = /^#[A-Za-z_][\w.-]*$/;
const URL_FN = /url\s*\(/i;
const LOCAL_URL_FN = /^url\(\s*#[A-Za-z_][\w.-]*\s*\)$/;

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

function allowedValue(name: string, value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(value)) return false;
  if (name === 'href' || name === 'xlink:href') return LOCAL_REF.test(value.trim());
  if (URL_FN.test(value)) return LOCAL_URL_FN.test(value.trim());
  // No scheme anywhere in a presentation value (javascript:, data:, http:).
  return !/^[a-z][a-z0-9+.-]*:/i.test(value.trim().replace(/\s+/g, ''));
}

interface XmlNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: XmlNode[];
}

function write(node: XmlNode): string {
  if (node.type === 'text') return escapeText(node.data ?? '');
  if (node.type === 'cdata') return (node.children ?? []).map(write).join('');
  if (node.type !== 'tag' || !node.name) return '';
  const name = node.name.toLowerCase();
  if (!ELEMENTS.has(name)) return '';
  const tag = node.name; // as written: SVG is case-sensitive (linearGradient)
  const attrs = Object.entries(node.attribs ?? {})
    .filter(([k, v]) => ATTRIBUTES.has(k.toLowerCase()) && allowedValue(k.toLowerCase(), v))
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  const ns = name === 'svg' ? ' xmlns="http://www.w3.org/2000/svg"' : '';
  const inner = (node.children ?? []).map(write).join('');
  return `<${tag}${ns}${attrs}>${inner}</${tag}>`;
}

/** The logo rewritten from the allow-list; throws when the text is not an SVG document. */
export function sanitizeSvg(source: string): string {
  const doc = parseDocument(source, { xmlMode: true, decodeEntities: true }) as unknown as XmlNode;
  const roots = (doc.children ?? []).filter((n) => n.type === 'tag');
  const root = roots[0];
  if (roots.length !== 1 || !root || root.name !== 'svg')
    throw new Error('not an SVG document (its root must be <svg>)');
  const out = write(root);
  // an xlink:href inside needs the namespace on the root
  return out.includes('xlink:href') && !out.startsWith('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink')
    ? out.replace(
        '<svg xmlns="http://www.w3.org/2000/svg"',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"',
      )
    : out;
}
