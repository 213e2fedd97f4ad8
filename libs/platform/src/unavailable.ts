/** A store this service needs did not answer; callers see 503 (HTTP) or UNAVAILABLE (gRPC) and may retry. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly store: string,
    options?: { cause?: unknown },
  ) {
    super(`${store} is unavailable`, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Why a call failed when it failed because something it depends on is down or too slow; retryable. */
export type Outage = 'unavailable' | 'deadline_exceeded';

/** Seconds a client is asked to wait (Retry-After) after an outage answer: stores come back within seconds. */
export const OUTAGE_RETRY_AFTER_S = 2;

const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// The errors ioredis and the MongoDB driver (and mongoose) raise when their server cannot be reached.
const STORE_ERROR_NAMES = new Set([
  'MaxRetriesPerRequestError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);
const STORE_MESSAGES = [/^Connection is closed\.?$/, /buffering timed out/, /Stream isn't writeable/];

/**
 * Classifies an error as an outage of a store or peer (as opposed to a bug or a bad request): a downstream
 * gRPC UNAVAILABLE or DEADLINE_EXCEEDED, a StoreUnavailableError, or a driver's connection error.
 */
export function outageOf(err: unknown, depth = 0): Outage | undefined {
  if (err instanceof StoreUnavailableError) return 'unavailable';
  if (typeof err !== 'object' || err === null || depth > 3) return undefined;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'number' && 'metadata' in err && 'details' in err) {
    if (e.code === GRPC_UNAVAILABLE) return 'unavailable';
    if (e.code === GRPC_DEADLINE_EXCEEDED) return 'deadline_exceeded';
    return undefined;
  }
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return 'unavailable';
  if (typeof e.name === 'string' && STORE_ERROR_NAMES.has(e.name)) return 'unavailable';
  const message = typeof e.message === 'string' ? e.message : '';
  if (STORE_MESSAGES.some((re) => re.test(message))) return 'unavailable';
  return e.cause === undefined ? undefined : outageOf(e.cause, depth + 1);
}
