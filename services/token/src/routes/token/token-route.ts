import type { RequestListener } from 'node:http';
import express, { type Router } from 'express';
import { noStoreHeaders } from '../http/json-endpoint';

/** One path of token's HTTP API and its handler per method. */
export interface EndpointMount {
  path: string;
  methods: Partial<Record<'GET' | 'POST', RequestListener>>;
  /** Answers OPTIONS (a CORS preflight); without it OPTIONS is 405 like any other method. */
  preflight?: RequestListener;
}

/**
 * The express mount of token's endpoints (/token, /revoke, /introspect, /userinfo) for hosts that only mount
 * `routes` (the same handlers the raw routes run ahead of express), and 405 for the other methods.
 */
export function tokenRoutes(mounts: EndpointMount[]): Router {
  const router = express.Router();
  for (const { path, methods, preflight } of mounts) {
    const allowed = Object.keys(methods);
    if (preflight) router.options(path, (req, res) => preflight(req, res));
    for (const [method, endpoint] of Object.entries(methods)) {
      const mount = method === 'GET' ? router.get.bind(router) : router.post.bind(router);
      mount(path, (req, res) => endpoint(req, res));
    }
    router.all(path, (_req, res) => {
      res.writeHead(405, [...noStoreHeaders, 'Allow', allowed.join(', ')]);
      res.end(
        JSON.stringify({
          error: 'invalid_request',
          error_description: `${path} accepts ${allowed.join(' or ')} only`,
        }),
      );
    });
  }
  return router;
}

/** The express mount of POST /token alone. */
export function tokenRoute(endpoint: RequestListener): Router {
  return tokenRoutes([{ path: '/token', methods: { POST: endpoint } }]);
}
