import type { RequestListener } from 'node:http';
import express, { type Router } from 'express';
import { noStoreHeaders } from './token-endpoint';

/**
 * The express mount of POST /token for hosts that only mount `routes` (the same handler the raw route
 * runs ahead of express), and 405 for the other methods.
 */
export function tokenRoute(endpoint: RequestListener): Router {
  const router = express.Router();
  router.post('/token', (req, res) => endpoint(req, res));
  router.all('/token', (_req, res) => {
    res.writeHead(405, [...noStoreHeaders, 'Allow', 'POST']);
    res.end(JSON.stringify({ error: 'invalid_request', error_description: '/token accepts POST only' }));
  });
  return router;
}
