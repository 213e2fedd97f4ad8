import type { AdminEventEvictions } from '@sesame/events';
import { type Clock, sha256 } from '@sesame/platform';
import { topics } from '@sesame/proto';
import type { ApiCredentialsPrincipal, Client, ClientDirectory } from './directory';

const MAX_ENTRIES = 10_000;

/** Runs before a call actually goes to the Directory (not for answers from memory). */
export type BeforeDirectoryCall = () => Promise<void>;

/** A ClientDirectory that can hand out views which run a gate before each call that reaches the Directory. */
export interface CachingDirectory extends ClientDirectory {
  through(beforeCall: BeforeDirectoryCall): ClientDirectory;
  /** Forgets every answer (token calls it on each admin event: directoryCacheEvictions). */
  clear(): void;
}

/** What empties the cache: every admin event, in a consumer group of this pod's own (evictOnAdminEvents). */
export const directoryCacheEvictions: AdminEventEvictions = {
  topic: topics.adminEvents,
  group: 'sesame-token-directory-cache',
  cacheName: 'Directory cache',
};

/**
 * Remembers successful Directory answers for a few seconds, so a burst of /token requests does not make one
 * gRPC round trip each (on the client_credentials path that round trip costs more CPU than the grant).
 * Authentications are keyed by sha256 of kind, id and secret (the secret itself is never held); a failed
 * authentication drops its entry at once. Concurrent identical lookups share one Directory call, so a burst
 * after an entry expires reserves one failure-throttle slot, not one per request (see auth-failures.ts).
 * `clear()` forgets everything, answers still on their way included (they are neither kept nor shared after
 * it): token calls it on every admin event (directoryCacheEvictions), so a revoked credential or a removed app
 * stops working as soon as the event arrives; `ttlMs` only bounds how long a missed event could matter.
 */
export function cacheDirectory(inner: ClientDirectory, ttlMs: number, clock: Clock): CachingDirectory {
  return new DirectoryCache(inner, ttlMs, clock);
}

/**
 * Built for the /token hot path: a hit costs one hash (for authentications), one Map lookup and no
 * allocation besides the answer's promise; closures are only made on a miss. `through` views are one small
 * object each (prototype methods, no per-request closures).
 */
class DirectoryCache implements CachingDirectory {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();
  private readonly loading = new Map<string, Promise<unknown>>();
  /** Bumped by clear(): an answer asked for before a clear() is neither kept nor shared after it. */
  private generation = 0;

  constructor(
    private readonly inner: ClientDirectory,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  getClient(clientId: string, before?: BeforeDirectoryCall): Promise<Client | null> {
    const key = `client\u0000${clientId}`;
    const hit = this.fresh(key);
    if (hit !== undefined) return Promise.resolve(hit as Client);
    return this.load(key, before, () => this.inner.getClient(clientId));
  }

  authenticateClient(clientId: string, secret: string, before?: BeforeDirectoryCall): Promise<Client | null> {
    const key = sha256(`app\u0000${clientId}\u0000${secret}`);
    const hit = this.fresh(key);
    if (hit !== undefined) return Promise.resolve(hit as Client);
    return this.load(key, before, () => this.inner.authenticateClient(clientId, secret));
  }

  authenticateApiCredentials(
    credentialsId: string,
    secret: string,
    before?: BeforeDirectoryCall,
  ): Promise<ApiCredentialsPrincipal | null> {
    const key = sha256(`api\u0000${credentialsId}\u0000${secret}`);
    const hit = this.fresh(key);
    if (hit !== undefined) return Promise.resolve(hit as ApiCredentialsPrincipal);
    return this.load(key, before, () => this.inner.authenticateApiCredentials(credentialsId, secret));
  }

  through(before: BeforeDirectoryCall): ClientDirectory {
    return new GatedView(this, before);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }

  /** The remembered answer (never null: only successes are kept), or undefined. */
  private fresh(key: string): unknown {
    if (this.ttlMs <= 0) return undefined;
    const hit = this.entries.get(key);
    return hit !== undefined && hit.expiresAt > this.clock.now() ? hit.value : undefined;
  }

  private async load<T>(
    key: string,
    before: BeforeDirectoryCall | undefined,
    ask: () => Promise<T | null>,
  ): Promise<T | null> {
    const pending = this.loading.get(key);
    if (pending) return pending as Promise<T | null>;
    const generation = this.generation;
    const promise = (before ? before().then(ask) : ask()).then((value) => {
      // Asked before an admin event cleared the cache: this answer may predate a revocation; use it once.
      if (generation !== this.generation) return value;
      if (value === null || this.ttlMs <= 0) this.entries.delete(key);
      else {
        if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(key, { value, expiresAt: this.clock.now() + this.ttlMs });
      }
      return value;
    });
    this.loading.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    }
  }
}

/** The cache with a gate run before each call that reaches the Directory. */
class GatedView implements ClientDirectory {
  constructor(
    private readonly cache: DirectoryCache,
    private readonly before: BeforeDirectoryCall,
  ) {}

  getClient(clientId: string) {
    return this.cache.getClient(clientId, this.before);
  }

  authenticateClient(clientId: string, secret: string) {
    return this.cache.authenticateClient(clientId, secret, this.before);
  }

  authenticateApiCredentials(credentialsId: string, secret: string) {
    return this.cache.authenticateApiCredentials(credentialsId, secret, this.before);
  }
}
