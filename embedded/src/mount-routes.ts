import { type ServiceModule, prefixGate } from '@sesame/platform';
import type express from 'express';

/** Paths auth serves nothing under (mgmt's admin and management APIs, interactive init, the console). */
export const NOT_AUTH_PREFIXES = ['/api', '/console'] as const;

/**
 * The services' public routes on the embedded default's one port. auth's come first: its pages are most of
 * what express serves here (a sign-in's flow pages; GET /authorize, /token and the documents are raw or fast
 * routes ahead of express), and express tests every route pattern of every router mounted before a request's
 * own. Requests under NOT_AUTH_PREFIXES skip auth's routes. The others follow in the order given.
 */
export function mountServiceRoutes(app: express.Router, modules: readonly ServiceModule[]): void {
  for (const mod of modules) {
    if (mod.name === 'auth' && mod.routes) app.use(prefixGate('elsewhere', NOT_AUTH_PREFIXES, mod.routes));
  }
  for (const mod of modules) if (mod.routes && mod.name !== 'auth') app.use(mod.routes);
}
