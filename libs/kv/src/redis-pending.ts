import type { PendingGroup, PendingPool } from './port';
import type { RedisClient } from './redis-client';

/**
 * KEYS: the pool's sorted set (members `<group>\0<key>`), then the group's (members `<key>`); scores are the
 * entries' expiry times. ARGV: now, the new entry's expiry, key, group, group max, pool max, the prefix of
 * every group's set, the TTL. Drops the expired members, evicts the oldest of a full group then of a full pool
 * (from both of their sets: another group's set is named from the prefix, which shares the pool's hash tag, so
 * every key the script touches lives on one Cluster slot), records the new entry and answers the keys evicted.
 */
const ADD_PENDING = `
local now, expiresAt = tonumber(ARGV[1]), tonumber(ARGV[2])
local key, group = ARGV[3], ARGV[4]
local groupMax, poolMax = tonumber(ARGV[5]), tonumber(ARGV[6])
local prefix, ttl = ARGV[7], tonumber(ARGV[8])
local sep = string.char(0)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREM', KEYS[1], group .. sep .. key)
redis.call('ZREM', KEYS[2], key)
local evicted = {}
local inGroup = redis.call('ZCARD', KEYS[2])
if inGroup >= groupMax then
  for _, k in ipairs(redis.call('ZRANGE', KEYS[2], 0, inGroup - groupMax)) do
    redis.call('ZREM', KEYS[2], k)
    redis.call('ZREM', KEYS[1], group .. sep .. k)
    evicted[#evicted + 1] = k
  end
end
local inPool = redis.call('ZCARD', KEYS[1])
if inPool >= poolMax then
  for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, inPool - poolMax)) do
    local at = string.find(m, sep, 1, true)
    local g, k = string.sub(m, 1, at - 1), string.sub(m, at + 1)
    redis.call('ZREM', KEYS[1], m)
    redis.call('ZREM', prefix .. g, k)
    evicted[#evicted + 1] = k
  end
end
redis.call('ZADD', KEYS[1], expiresAt, group .. sep .. key)
redis.call('ZADD', KEYS[2], expiresAt, key)
for i = 1, 2 do
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return evicted`;

/** KEYS as ADD_PENDING's; ARGV: key, group, now. Takes the key out of both sets: 1 when it was pending and live. */
const CONFIRM_PENDING = `
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[2] .. string.char(0) .. ARGV[1])
if score and tonumber(score) > tonumber(ARGV[3]) then return 1 end
return 0`;

/**
 * The pending entries on Redis (KeyValueStore.addPending). The counting lives in two sorted sets per group,
 * under the hash tag `{<namespace>pending:<pool>}` (one Cluster slot per pool), in Lua scripts, so of parallel
 * starts and confirmations each sees the others' effects. The entries' values keep their own keys (spread
 * over the Cluster), written before the script counts them; an evicted key is deleted once the script has
 * taken it out of the pool, so confirmPending of it answers false even before that delete lands.
 */
export class RedisPendingPools {
  constructor(
    private readonly redis: RedisClient,
    private readonly namespace: string,
  ) {}

  private keys(where: PendingGroup): [string, string, string] {
    const prefix = `{${this.namespace}pending:${where.pool}}:group:`;
    return [`{${this.namespace}pending:${where.pool}}`, `${prefix}${where.group}`, prefix];
  }

  async add(key: string, value: string, ttlMs: number, limits: PendingPool): Promise<string[]> {
    const now = Date.now();
    const [poolKey, groupKey, prefix] = this.keys(limits);
    // The value first: a parallel start that evicts this key deletes it after its script, so after this set.
    await this.redis.set(this.namespace + key, value, 'PX', ttlMs);
    const evicted = (await this.redis.eval(
      ADD_PENDING,
      2,
      poolKey,
      groupKey,
      String(now),
      String(now + ttlMs),
      key,
      limits.group,
      String(limits.groupMax),
      String(limits.poolMax),
      prefix,
      String(ttlMs),
    )) as string[];
    await Promise.all(evicted.map((gone) => this.redis.del(this.namespace + gone)));
    return evicted;
  }

  async confirm(key: string, value: string, ttlMs: number, where: PendingGroup): Promise<boolean> {
    const [poolKey, groupKey] = this.keys(where);
    const was = await this.redis.eval(
      CONFIRM_PENDING,
      2,
      poolKey,
      groupKey,
      key,
      where.group,
      String(Date.now()),
    );
    if (Number(was) !== 1) return false;
    return (await this.redis.set(this.namespace + key, value, 'PX', ttlMs, 'XX')) === 'OK';
  }
}
