import { type Clock, sha256 } from '@sesame/platform';
import type { ClientDirectory } from './directory';

const MAX_ENTRIES = 10_000;

/**
 * Remembers successful Directory answers for a few seconds, so a burst of /token requests does not make one
 * gRPC round trip each (on the client_credentials path that round trip costs more CPU than the grant).
 * Authentications are keyed by sha256 of kind, id and secret (the secret itself is never held); a failed
 * authentication drops its entry at once. `clear()` forgets everything: token calls it on every admin event
 * (evictOnAdminEvents), so a revoked credential or a removed app stops working as soon as the event arrives;
 * `ttlMs` only bounds how long a missed event could matter.
 */
export function cacheDirectory(
  inner: ClientDirectory,
  ttlMs: number,
  clock: Clock,
): ClientDirectory & { clear(): void } {
  if (ttlMs <= 0) return { ...inner, clear: () => undefined };
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  async function cached<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const now = clock.now();
    const hit = entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value as T;
    const value = await load();
    if (value === null) {
      entries.delete(key);
      return null;
    }
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    entries.set(key, { value, expiresAt: now + ttlMs });
    return value;
  }
  return {
    clear: () => entries.clear(),
    getClient: (clientId) => cached(`client\u0000${clientId}`, () => inner.getClient(clientId)),
    authenticateClient: (clientId, secret) =>
      cached(sha256(`app\u0000${clientId}\u0000${secret}`), () => inner.authenticateClient(clientId, secret)),
    authenticateApiCredentials: (credentialsId, secret) =>
      cached(sha256(`api\u0000${credentialsId}\u0000${secret}`), () =>
        inner.authenticateApiCredentials(credentialsId, secret),
      ),
  };
}
