import type express from 'express';

/** One route an express router answers: its method (upper case) and its full path template (`/a/:id`). */
export interface RouteEntry {
  method: string;
  path: string;
}

interface Layer {
  name: string;
  route?: { path: unknown; methods: Record<string, boolean> };
  regexp: RegExp & { fast_slash?: boolean };
  handle: { stack?: Layer[] };
}

/** The path a router was mounted at (`router.use('/console', c)`), read back from express 4's layer regexp. */
function mountPath(layer: Layer): string {
  if (layer.regexp.fast_slash) return '';
  const path = layer.regexp.source
    .replace(/^\^/, '')
    .replace(/\\\/\?\(\?=\\\/\|\$\)$/, '')
    .replace(/\\\//g, '/');
  if (/[\\^$()[\]|?*+{}]/.test(path))
    throw new Error(`route table: cannot read the mount path ${layer.regexp}`);
  return path;
}

/**
 * Every route of `router` and of the routers mounted in it, in order: what the fuzz test sends to, so a route
 * added anywhere under mgmt's public router is fuzzed without being listed by hand.
 */
export function routeTable(router: express.Router, prefix = ''): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        if (typeof path !== 'string') throw new Error(`route table: a route with a non-string path ${path}`);
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on && method !== '_all') out.push({ method: method.toUpperCase(), path: `${prefix}${path}` });
      }
    } else if (layer.handle.stack) {
      out.push(...routeTable(layer.handle as unknown as express.Router, `${prefix}${mountPath(layer)}`));
    }
  }
  return out;
}

/** The `:name` parameters of a path template. */
export const paramsOf = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
