import type { RequestHandler } from 'express';

/**
 * First in the chain, so every answer of /token carries them — successes, protocol errors, malformed
 * bodies and server errors alike (spec 4.1 and 7).
 */
export const setNoStoreHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  next();
};
