/** Past this many answers, the oldest is forgotten first. */
const MAX_ENTRIES = 10_000;

/** A lookup's answer, and whether it may be remembered (a client not found, a fallback design: no). */
export interface Lookup<V> {
  value: V;
  keep: boolean;
}

export interface LookupCache<V> {
  /** The remembered answer for `key` while it is fresh; else `load`'s, shared with concurrent lookups of `key`. */
  get(key: string, load: () => Promise<Lookup<V>>): Promise<V>;
  /** Forgets every answer; one asked for before is still returned but not remembered (it may predate the change). */
  clear(): void;
}

/**
 * Remembers the answers of a slow lookup (a gRPC call to the Directory) for `ttlMs`; 0 remembers nothing.
 * Shared by the client cache and the brand cache, which both empty it on every admin event.
 */
export function lookupCache<V>(ttlMs: number, now: () => number): LookupCache<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  const loading = new Map<string, Promise<V>>();
  let generation = 0;
  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now()) return Promise.resolve(hit.value);
      const pending = loading.get(key);
      if (pending) return pending;
      const asked = generation;
      const promise = load()
        .then(({ value, keep }) => {
          if (keep && ttlMs > 0 && asked === generation) {
            if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
            entries.set(key, { value, expiresAt: now() + ttlMs });
          }
          return value;
        })
        .finally(() => {
          if (loading.get(key) === promise) loading.delete(key);
        });
      loading.set(key, promise);
      return promise;
    },
    clear() {
      generation++;
      entries.clear();
      loading.clear();
    },
  };
}
