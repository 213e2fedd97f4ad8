import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import type { Admission, KeyValueStore, PendingGroup, PendingPool, SlidingWindow } from './port';
import { type RedisClient, createRedisClient, isCluster } from './redis-client';
import { RedisPendingPools } from './redis-pending';

const DECR_IF_PRESENT =
  "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0";

/**
 * Sliding windows as sorted sets (score: admission time in ms). KEYS: the windows; ARGV: now, a unique member,
 * then limit and window length per key. Answers {index of the first full window, ms until it frees a place},
 * or {-1, 0} after recording the admission in every window.
 */
const ADMIT = `
local now = tonumber(ARGV[1])
for i = 1, #KEYS do
  local limit = tonumber(ARGV[1 + 2 * i])
  local window = tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= limit then
    local at = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
    local oldest = tonumber(at[2]) or now
    return {i - 1, oldest + window - now}
  end
end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 + 2 * i]))
end
return {-1, 0}`;

/**
 * ADMIT's first loop without writing: KEYS the windows, ARGV now then limit and window length per key. Answers
 * the longest time until a full window frees a place (0: none is full).
 */
const ADMISSION_WAIT = `
local now = tonumber(ARGV[1])
local wait = 0
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i])
  local window = tonumber(ARGV[1 + 2 * i])
  local live = redis.call('ZRANGEBYSCORE', KEYS[i], '(' .. (now - window), '+inf', 'WITHSCORES')
  local count = #live / 2
  if count >= limit then
    local oldest = tonumber(live[2 * (count - limit) + 2])
    wait = math.max(wait, oldest + window - now)
  end
end
return wait`;

/**
 * Redis adapter (ioredis) on one server, a Sentinel-managed primary or a Cluster (redis-client.ts). Every key is
 * prefixed with the owner's namespace.
 *
 * On a Cluster every key of one command or script must hash to one slot. Only admit and admissionWaitMs touch
 * several keys at once (their windows, atomically): there the windows' keys carry the hash tag
 * `{<namespace>admit}`, so an owner's windows live on one slot. The tag exists on a Cluster only: on one server
 * or Sentinel the keys keep their names, so no data moves on upgrade (a Cluster starts empty). The pending
 * pools' sets always carry their own tag (redis-pending.ts). getMany reads
 * its keys one by one on a Cluster (one round trip per node with auto-pipelining), which it needs not be atomic.
 */
export class RedisKeyValueStore implements KeyValueStore {
  /** The connection in subscriber mode that signals arrive on (a Redis connection that subscribes does nothing else). */
  private subscriber: RedisClient | undefined;
  private readonly cluster: boolean;
  private readonly pending: RedisPendingPools;
  /** Per channel (namespaced): its listeners and its SUBSCRIBE, held while the channel has listeners. */
  private readonly subscriptions = new Map<
    string,
    { listeners: Set<() => void>; subscribed: Promise<unknown> }
  >();

  constructor(
    private readonly redis: RedisClient,
    private readonly namespace: string,
    private readonly ownsConnection = true,
  ) {
    this.cluster = isCluster(redis);
    this.pending = new RedisPendingPools(redis, namespace);
  }

  /** SESAME_REDIS_URL in any of its forms (redis-url.ts in @sesame/platform). */
  static connect(url: string, namespace: string): RedisKeyValueStore {
    const redis = createRedisClient(url);
    redis.on('error', () => {
      // Connection errors surface on the calls themselves and in /readyz; ioredis reconnects on its own.
    });
    return new RedisKeyValueStore(redis, namespace);
  }

  private k(key: string) {
    return `${this.namespace}${key}`;
  }

  /** A sliding window's key: on a Cluster, every window of the owner in one hash slot (see the class). */
  private windowKey(key: string) {
    return this.cluster ? `{${this.namespace}admit}${key}` : this.k(key);
  }

  get(key: string) {
    return this.redis.get(this.k(key));
  }

  async getMany(keys: string[]) {
    if (keys.length === 0) return [];
    if (this.cluster) return Promise.all(keys.map((key) => this.redis.get(this.k(key))));
    return this.redis.mget(keys.map((key) => this.k(key)));
  }

  async set(key: string, value: string, opts: { ttlMs: number; onlyIfAbsent?: boolean }) {
    const res = opts.onlyIfAbsent
      ? await this.redis.set(this.k(key), value, 'PX', opts.ttlMs, 'NX')
      : await this.redis.set(this.k(key), value, 'PX', opts.ttlMs);
    return res === 'OK';
  }

  async replace(key: string, value: string) {
    return (await this.redis.set(this.k(key), value, 'KEEPTTL', 'XX')) === 'OK';
  }

  take(key: string) {
    return this.redis.getdel(this.k(key));
  }

  async del(key: string) {
    await this.redis.del(this.k(key));
  }

  async incr(key: string, ttlMs: number) {
    const [[incrErr, count], [expErr]] = (await this.redis
      .multi()
      .incr(this.k(key))
      .pexpire(this.k(key), ttlMs, 'NX')
      .exec()) as [[Error | null, number], [Error | null, unknown]];
    if (incrErr || expErr) throw incrErr ?? expErr;
    return count;
  }

  // A bare DECR on a key that expired meanwhile would create one with no TTL that never goes away.
  async decr(key: string) {
    const count = await this.redis.eval(DECR_IF_PRESENT, 1, this.k(key));
    return Number(count);
  }

  async admit(windows: readonly SlidingWindow[], nowMs: number): Promise<Admission> {
    if (windows.length === 0) return { admitted: true };
    const args = windows.flatMap((w) => [String(w.limit), String(w.windowMs)]);
    const [blocked, retryAfterMs] = (await this.redis.eval(
      ADMIT,
      windows.length,
      ...windows.map((w) => this.windowKey(w.key)),
      String(Math.floor(nowMs)),
      `${Math.floor(nowMs)}:${randomUUID()}`,
      ...args,
    )) as [number, number];
    return blocked < 0
      ? { admitted: true }
      : { admitted: false, blocked, retryAfterMs: Math.max(1, Number(retryAfterMs)) };
  }

  async admissionWaitMs(windows: readonly SlidingWindow[], nowMs: number): Promise<number> {
    if (windows.length === 0) return 0;
    const wait = await this.redis.eval(
      ADMISSION_WAIT,
      windows.length,
      ...windows.map((w) => this.windowKey(w.key)),
      String(Math.floor(nowMs)),
      ...windows.flatMap((w) => [String(w.limit), String(w.windowMs)]),
    );
    return Math.max(0, Number(wait));
  }

  async schedule(key: string, member: string, atMs: number, ttlMs: number) {
    await this.redis.multi().zadd(this.k(key), atMs, member).pexpire(this.k(key), ttlMs).exec();
  }

  async unschedule(key: string, member: string) {
    await this.redis.zrem(this.k(key), member);
  }

  due(key: string, untilMs: number, limit: number) {
    return this.redis.zrangebyscore(this.k(key), '-inf', untilMs, 'LIMIT', 0, limit);
  }

  addPending(key: string, value: string, ttlMs: number, pool: PendingPool) {
    return this.pending.add(key, value, ttlMs, pool);
  }

  confirmPending(key: string, value: string, ttlMs: number, pool: PendingGroup) {
    return this.pending.confirm(key, value, ttlMs, pool);
  }

  async ttlMs(key: string) {
    const ms = await this.redis.pttl(this.k(key));
    return ms < 0 ? null : ms;
  }

  /**
   * PUBLISH, or on a Cluster sharded pub/sub (SPUBLISH, Redis 7): a plain PUBLISH there reaches the other nodes
   * over the cluster bus after it returned, so a listener that started after the signal could still hear it,
   * and every node carries every signal. SPUBLISH delivers on the channel's own shard before it returns.
   */
  async signal(channel: string) {
    const name = this.k(channel);
    if (this.redis instanceof Cluster) await this.redis.spublish(name, '');
    else await this.redis.publish(name, '');
  }

  async listen(channel: string, listener: () => void) {
    const name = this.k(channel);
    const own = () => listener();
    let subscription = this.subscriptions.get(name);
    if (!subscription) {
      const subscriber = this.subscriberConnection();
      subscription = {
        listeners: new Set(),
        subscribed: subscriber instanceof Cluster ? subscriber.ssubscribe(name) : subscriber.subscribe(name),
      };
      this.subscriptions.set(name, subscription);
    }
    const { listeners } = subscription;
    listeners.add(own);
    const stop = () => {
      if (!listeners.delete(own) || listeners.size > 0 || this.subscriptions.get(name) !== subscription)
        return;
      this.subscriptions.delete(name);
      // Commands on one connection run in order: this follows the SUBSCRIBE even if that is still in flight.
      const subscriber = this.subscriber;
      if (subscriber instanceof Cluster) subscriber.sunsubscribe(name).catch(() => undefined);
      else subscriber?.unsubscribe(name).catch(() => undefined);
    };
    try {
      // A second listener of a channel being subscribed waits for the same SUBSCRIBE.
      await subscription.subscribed;
    } catch (err) {
      stop();
      throw err;
    }
    return stop;
  }

  private subscriberConnection(): RedisClient {
    if (!this.subscriber) {
      // ioredis subscribes again to every channel after it reconnects (autoResubscribe); on a Cluster it keeps
      // one sharded subscriber per shard and moves a channel with its slot.
      const subscriber =
        this.redis instanceof Cluster
          ? this.redis.duplicate([], { shardedSubscribers: true })
          : this.redis.duplicate();
      subscriber.on('error', () => {
        // As for the main connection: failures surface on the calls; ioredis reconnects on its own.
      });
      const heard = (channel: string) => {
        const subscription = this.subscriptions.get(channel);
        if (subscription) for (const listener of [...subscription.listeners]) listener();
      };
      subscriber.on(subscriber instanceof Cluster ? 'smessage' : 'message', heard);
      this.subscriber = subscriber;
    }
    return this.subscriber;
  }

  async ping() {
    await this.redis.ping();
  }

  async close() {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    this.subscriptions.clear();
    // disconnect after quit: a Sentinel client's failover detector keeps its sentinel connections past quit().
    await subscriber?.quit().catch(() => undefined);
    subscriber?.disconnect();
    if (this.ownsConnection) {
      await this.redis.quit().catch(() => undefined);
      this.redis.disconnect();
    }
  }
}
