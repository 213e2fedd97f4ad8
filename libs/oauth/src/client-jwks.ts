import { type Clock, OutboundRefused, checkOutboundUrl } from '@sesame/platform';
import type { JSONWebKeySet } from 'jose';
import { oauthErrors } from './errors';

/** What private_key_jwt needs of a client: its id and its keys, registered by value or by URL. */
export interface KeyedClient {
  clientId: string;
  /** The JWK Set as JSON, or empty. */
  jwks: string;
  /** Where the client publishes its JWK Set, or empty. */
  jwksUri: string;
}

export interface ClientJwksLimits {
  /** A fetch that takes longer is abandoned (the client authentication fails). */
  timeoutMs: number;
  /** A JWK Set document larger than this is refused. */
  maxBytes: number;
  /** How long a fetched set is used before it is fetched again. */
  cacheMs: number;
  /** A refetch for an unknown kid happens at most once in this window per jwks_uri. */
  minRefetchMs: number;
  /** http and loopback hosts (local development only). */
  allowLoopback: boolean;
}

export const DEFAULT_CLIENT_JWKS_LIMITS: ClientJwksLimits = Object.freeze({
  timeoutMs: 3000,
  maxBytes: 64 * 1024,
  cacheMs: 10 * 60_000,
  minRefetchMs: 60_000,
  allowLoopback: false,
});

/** The cache holds at most this many sets; the oldest goes first. */
const MAX_CACHED = 1000;

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The public keys of private_key_jwt clients: parsed from the registered `jwks`, or fetched from `jwks_uri`
 * (timeout, size cap, no redirects, the outbound SSRF rules) and cached per process. `refresh` asks for a
 * fresh copy after an unknown kid, which the rate limit grants at most once a minute per URL, so a stream of
 * assertions with made-up kids cannot turn Sesame into a fetcher.
 */
export class ClientJwks {
  private readonly cache = new Map<string, { jwks: JSONWebKeySet; fetchedAt: number }>();
  private readonly byValue = new Map<string, JSONWebKeySet>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: ClientJwksLimits = DEFAULT_CLIENT_JWKS_LIMITS,
    private readonly fetchFn: Fetch = fetch,
  ) {}

  /** The client's set; `refresh` returns a refetched one, or undefined when none may be fetched now. */
  async keysOf(client: KeyedClient, opts: { refresh?: boolean } = {}): Promise<JSONWebKeySet | undefined> {
    if (client.jwks) return opts.refresh ? undefined : this.registered(client.jwks);
    if (!client.jwksUri)
      throw oauthErrors.invalidClient('the client has no registered keys (jwks or jwks_uri)');
    const cached = this.cache.get(client.jwksUri);
    const now = this.clock.now();
    if (opts.refresh) {
      if (cached && now - cached.fetchedAt < this.limits.minRefetchMs) return undefined;
    } else if (cached && now - cached.fetchedAt < this.limits.cacheMs) {
      return cached.jwks;
    }
    const jwks = await this.fetchJwks(client.jwksUri);
    this.cache.delete(client.jwksUri);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(client.jwksUri, { jwks, fetchedAt: now });
    return jwks;
  }

  /**
   * The client's set when no fetch is needed (registered by value, or fetched from jwks_uri and still fresh),
   * without an await; undefined otherwise (then keysOf). Throws like keysOf for a set that does not parse.
   */
  keysInMemory(client: KeyedClient): JSONWebKeySet | undefined {
    if (client.jwks) return this.registered(client.jwks);
    const cached = client.jwksUri ? this.cache.get(client.jwksUri) : undefined;
    return cached && this.clock.now() - cached.fetchedAt < this.limits.cacheMs ? cached.jwks : undefined;
  }

  /**
   * A set registered by value, parsed once per JSON text: the same object each time, so its imported keys are
   * kept with it (verifyClientSignedJwt). A set that does not parse is not kept (it throws each time).
   */
  private registered(text: string): JSONWebKeySet {
    let jwks = this.byValue.get(text);
    if (!jwks) {
      jwks = parseJwks(text);
      if (this.byValue.size >= MAX_CACHED) this.byValue.delete(this.byValue.keys().next().value as string);
      this.byValue.set(text, jwks);
    }
    return jwks;
  }

  private async fetchJwks(uri: string): Promise<JSONWebKeySet> {
    const unreachable = () => oauthErrors.invalidClient("the client's jwks_uri could not be fetched");
    try {
      checkOutboundUrl(uri, {
        allowHttp: this.limits.allowLoopback,
        allowLoopback: this.limits.allowLoopback,
      });
    } catch (err) {
      if (err instanceof OutboundRefused) throw unreachable();
      throw err;
    }
    let body: string;
    try {
      const res = await this.fetchFn(uri, {
        redirect: 'error',
        headers: { accept: 'application/json, application/jwk-set+json' },
        signal: AbortSignal.timeout(this.limits.timeoutMs),
      });
      if (!res.ok) throw unreachable();
      body = await readCapped(res, this.limits.maxBytes);
    } catch {
      throw unreachable();
    }
    return parseJwks(body);
  }
}

/** A JWK Set document: an object whose `keys` is an array of objects with a `kty`. */
export function parseJwks(text: string): JSONWebKeySet {
  const invalid = () => oauthErrors.invalidClient("the client's JWK Set is not valid");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid();
  }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'object' && k && typeof k.kty === 'string'))
    throw invalid();
  // Only public members are ever needed; a set registered with private parts is refused at registration.
  return { keys } as JSONWebKeySet;
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new Error('too large');
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error('too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
