import type { EmbeddedStore } from '@sesame/embedded-store';
import { MemoryKeyValueStore } from './memory';
import type { KeyValueStore } from './port';
import { RedisKeyValueStore } from './redis';
import { SqliteKeyValueStore } from './sqlite';

export type { KeyValueStore } from './port';
export { MemoryKeyValueStore } from './memory';
export { RedisKeyValueStore } from './redis';
export { SqliteKeyValueStore } from './sqlite';
export { shortLivedKeyValueStore } from './short-lived';

/**
 * Real Redis when a URL is configured, else the embedded engine when one is given (the embedded default), else
 * the in-memory adapter. Namespace: `sesame:<owner>:`.
 */
export function createKeyValueStore(opts: {
  redisUrl?: string;
  owner: string;
  embedded?: EmbeddedStore;
}): KeyValueStore {
  const namespace = `sesame:${opts.owner}:`;
  if (opts.redisUrl) return RedisKeyValueStore.connect(opts.redisUrl, namespace);
  return opts.embedded ? new SqliteKeyValueStore(opts.embedded, namespace) : new MemoryKeyValueStore();
}
export { type AuthAttempt, type AuthFailureLimits, AuthFailureThrottle } from './auth-failure-throttle';
export {
  LIMIT_DIMENSIONS,
  type LimitDimension,
  type LimitSetting,
  type LimitSubject,
  type MessagePurpose,
  type ReserveOptions,
  type SendDecision,
  type SendLimitSettings,
  SendLimiter,
  limitDecisions,
} from './send-limiter';
export type { Admission, PendingGroup, PendingPool, SlidingWindow } from './port';
export { type RedisClient, createRedisClient } from './redis-client';
