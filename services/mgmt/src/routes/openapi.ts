import { Router } from 'express';

/** GET /openapi.json: the OpenAPI 3.1 document of the management and admin APIs. */
export function openApiRoute(document: Record<string, unknown>): Router {
  const body = JSON.stringify(document);
  return Router().get('/openapi.json', (_req, res) => {
    res.type('application/json').send(body);
  });
}
