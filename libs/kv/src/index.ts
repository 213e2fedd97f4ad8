import { MemoryKeyValueStore } from './memory';
import type { KeyValueStore } from './port';
import { RedisKeyValueStore } from './redis';

export type { KeyValueStore } from './port';
export { MemoryKeyValueStore } from './memory';
export { RedisKeyValueStore } from './redis';

/** Real Redis when a URL is configured, otherwise the in-memory adapter. Namespace: `sesame:<owner>:`. */
export function createKeyValueStore(opts: { redisUrl?: string; owner: string }): KeyValueStore {
  const namespace = `sesame:${opts.owner}:`;
  return opts.redisUrl ? RedisKeyValueStore.connect(opts.redisUrl, namespace) : new MemoryKeyValueStore();
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
export type { Admission, SlidingWindow } from './port';
