import type { FastRoute } from '@sesame/platform';
import type { KeyManager } from '../keys/key-manager';

/** Spec 4.4: no caching by intermediaries; RPs refetch (and see a new key before it signs anything). */
export const jwksHeaders = Object.freeze({
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store, must-revalidate',
  Pragma: 'no-cache',
});

/** GET /jwks: the pre-serialized body the key manager rebuilds only when the published key set changes. */
export function jwksRoute(manager: KeyManager): FastRoute {
  return { path: '/jwks', respond: () => ({ headers: jwksHeaders, body: manager.jwksBody() }) };
}
