import { type Clock, sha256 } from '@sesame/platform';
import type { ApiCredentialsPrincipal, ClientDirectory } from './directory';

const MAX_ENTRIES = 10_000;

/**
 * Remembers successful API-credential authentications for a few seconds, so a burst of client_credentials
 * grants does not make one Directory round trip each. Keyed by sha256 of id and secret (the secret itself
 * is never held); a failed authentication drops the entry. Trade-off, documented in the config: a revoked
 * credential keeps working on this pod for at most `ttlMs`.
 */
export function cacheApiCredentials(inner: ClientDirectory, ttlMs: number, clock: Clock): ClientDirectory {
  if (ttlMs <= 0) return inner;
  const entries = new Map<string, { principal: ApiCredentialsPrincipal; expiresAt: number }>();
  return {
    getClient: (clientId) => inner.getClient(clientId),
    authenticateClient: (clientId, secret) => inner.authenticateClient(clientId, secret),
    async authenticateApiCredentials(credentialsId, secret) {
      const key = sha256(`${credentialsId}\u0000${secret}`);
      const hit = entries.get(key);
      const now = clock.now();
      if (hit && hit.expiresAt > now) return hit.principal;
      const principal = await inner.authenticateApiCredentials(credentialsId, secret);
      if (!principal) {
        entries.delete(key);
        return null;
      }
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(key, { principal, expiresAt: now + ttlMs });
      return principal;
    },
  };
}
