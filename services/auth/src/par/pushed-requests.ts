import type { KeyValueStore } from '@sesame/kv';
import { PAR_REQUEST_URI_PREFIX } from '@sesame/oauth';
import { newSecret, sha256 } from '@sesame/platform';

/** RFC 9126 §2.2 and FAPI 2.0: a pushed request lives at most 60 seconds and is used once. */
export const PUSHED_REQUEST_TTL_S = 60;

/** What /par validated: the authorization parameters (request object already applied), for one client. */
export interface PushedRequest {
  clientId: string;
  values: Record<string, string>;
}

/**
 * Pushed authorization requests in the KV store under a hash of their request_uri (ARCHITECTURE §4: secrets
 * are never keys), with a 60 s TTL. `take` hands a request to its own client once; another client's
 * attempt leaves it in place (and learns nothing but invalid_request_uri).
 */
export class PushedRequests {
  constructor(private readonly kv: Pick<KeyValueStore, 'get' | 'set' | 'take'>) {}

  async push(request: PushedRequest): Promise<{ requestUri: string; expiresIn: number }> {
    const requestUri = `${PAR_REQUEST_URI_PREFIX}${newSecret()}`;
    await this.kv.set(keyOf(requestUri), JSON.stringify(request), { ttlMs: PUSHED_REQUEST_TTL_S * 1000 });
    return { requestUri, expiresIn: PUSHED_REQUEST_TTL_S };
  }

  /** The pushed parameters, once, when `requestUri` is live and was pushed by `clientId`; else undefined. */
  async take(requestUri: string, clientId: string | undefined): Promise<Record<string, string> | undefined> {
    const key = keyOf(requestUri);
    const stored = await this.kv.get(key);
    if (!stored || !clientId) return undefined;
    const request = JSON.parse(stored) as PushedRequest;
    if (request.clientId !== clientId) return undefined;
    // take is atomic: of two racing uses, one gets it.
    return (await this.kv.take(key)) ? request.values : undefined;
  }
}

const keyOf = (requestUri: string) => `par:${sha256(requestUri)}`;
