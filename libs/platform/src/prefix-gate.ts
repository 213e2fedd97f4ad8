import express from 'express';

/**
 * `routers` tried only for requests whose path is under one of `prefixes` (`when: 'under'`), or only for the
 * others (`when: 'elsewhere'`); a prefix covers itself and what follows a slash, compared as express compares
 * mount paths (without letter case), and paths stay whole as the routes name them. Express tests every route
 * pattern of every router a request enters, in mount order, so on the embedded default's one port a request
 * skips whole families of routes that cannot be its own instead of testing each one.
 */
export function prefixGate(
  when: 'under' | 'elsewhere',
  prefixes: readonly string[],
  ...routers: express.RequestHandler[]
): express.RequestHandler {
  const inner = express.Router();
  inner.use(...routers);
  const lower = prefixes.map((p) => p.toLowerCase());
  const wanted = when === 'under';
  const gate: express.RequestHandler = (req, res, next) => {
    const path = req.path.toLowerCase();
    if (lower.some((p) => path === p || path.startsWith(`${p}/`)) === wanted) inner(req, res, next);
    else next();
  };
  // The inner router's layers, as a mounted router shows them (route tables list every route by them).
  return Object.assign(gate, { stack: inner.stack });
}
