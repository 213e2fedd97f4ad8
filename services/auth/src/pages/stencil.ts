/**
 * Stencils: a page rendered once per shape with markers where its per-request strings go, then filled in by
 * string concatenation. A page's template, catalog texts and structure depend on the locale and on a few
 * choices (an error shown or not, a passkey offered or not), not on the session's CSRF token, the flow's
 * URLs or the app's name; rendering Handlebars for each request repeats the same work (the first page's
 * render was ~13 % of /authorize's CPU). The result is the same string the template gives: the stencil tests
 * compare both for every locale with hostile values.
 *
 * A "hole" is a context field (a dotted path) whose string varies per request. The shape of a context is
 * every other field, plus whether each hole is empty (a template may test it with #if). A hole's markers
 * carry an `&` so the stencil sees whether the template printed it escaped (`&amp;`) or raw, and fills it the
 * same way. Handlebars' escaping maps each character on its own, so escaping a value alone equals escaping
 * it inside the catalog text the `t` helper built around it.
 *
 * This holds for helpers that treat a hole as data whatever it holds, as `t` does with a placeholder value.
 * A helper that uses a hole as a key (`t` with a key, `asset`) throws on the marker, and that shape renders
 * with Handlebars every time; a helper that looked a hole up and fell back to printing it would not be
 * detected, so the renderer must never register one.
 */

type Escape = (text: string) => string;
/** Chunks of static HTML between the holes: out = parts[0] + fill(holes[0]) + parts[1] + … */
interface Stencil {
  parts: string[];
  holes: Array<{ path: string[]; escaped: boolean }>;
}

const OPEN = '\uE000';
const CLOSE = '\uE001';
const marker = (index: number) => `${OPEN}${index}&${CLOSE}`;
const MARKERS = /\uE000(\d+)(&amp;|&)\uE001/g;
/** Stands for a non-empty hole in a shape key. */
const FILLED = `${OPEN}filled${CLOSE}`;
/** Shapes are few (locales × a handful of choices); past this, pages render the slow way. */
const MAX_STENCILS = 512;

const get = (obj: unknown, path: string[]): unknown =>
  path.reduce<unknown>(
    (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
    obj,
  );

function set(obj: Record<string, unknown>, path: string[], value: unknown): void {
  let target = obj;
  for (const k of path.slice(0, -1)) {
    const next = { ...(target[k] as Record<string, unknown>) };
    target[k] = next;
    target = next;
  }
  target[path[path.length - 1]!] = value;
}

export interface StencilRenderer {
  /** The page for this context: from its shape's stencil, or `render` when the shape has none. */
  render(key: string, context: Record<string, unknown>): string;
}

/**
 * `render` renders a context the slow way (Handlebars); `holes` are the dotted paths filled per request.
 * `key` names what else the output depends on (page and locale).
 */
export function stencilRenderer(
  holes: string[],
  render: (context: Record<string, unknown>) => string,
  escapeHtml: Escape,
): StencilRenderer {
  const paths = holes.map((h) => h.split('.'));
  const stencils = new Map<string, Stencil | null>();

  function build(context: Record<string, unknown>): Stencil | null {
    const marked = { ...context };
    paths.forEach((path, i) => {
      const value = get(context, path);
      if (typeof value === 'string' && value !== '') set(marked, path, marker(i));
    });
    let html: string;
    try {
      html = render(marked);
    } catch {
      return null; // a hole used as a catalog key or asset name: not a value to fill in, render each time
    }
    const parts: string[] = [];
    const found: Stencil['holes'] = [];
    let last = 0;
    for (const m of html.matchAll(MARKERS)) {
      parts.push(html.slice(last, m.index));
      found.push({ path: paths[Number(m[1])]!, escaped: m[2] === '&amp;' });
      last = m.index + m[0].length;
    }
    parts.push(html.slice(last));
    // A marker a helper changed (cut, cased, encoded): the fill could not be trusted, so there is no stencil.
    if (parts.some((p) => p.includes(OPEN) || p.includes(CLOSE))) return null;
    return { parts, holes: found };
  }

  return {
    render(key, context) {
      // The shape: the context with each non-empty string hole replaced by a placeholder.
      const shape = { ...context };
      for (const path of paths) {
        const value = get(context, path);
        if (typeof value === 'string' && value !== '') set(shape, path, FILLED);
      }
      const shapeKey = `${key}\n${JSON.stringify(shape)}`;
      let stencil = stencils.get(shapeKey);
      if (stencil === undefined) {
        stencil = build(context);
        if (stencils.size < MAX_STENCILS) stencils.set(shapeKey, stencil);
      }
      if (!stencil) return render(context);
      let out = stencil.parts[0]!;
      for (let i = 0; i < stencil.holes.length; i++) {
        const hole = stencil.holes[i]!;
        const value = get(context, hole.path) as string;
        // A partial indents every line of its output, a value's own lines included: render those the slow way.
        if (value.includes('\n')) return render(context);
        out += (hole.escaped ? escapeHtml(value) : value) + stencil.parts[i + 1]!;
      }
      return out;
    },
  };
}
