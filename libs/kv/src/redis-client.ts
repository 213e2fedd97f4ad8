import { parseRedisUrl } from '@sesame/platform';
import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** A connection to one server, a Sentinel-managed primary or a Cluster: the commands the KV adapter uses. */
export type RedisClient = Redis | Cluster;

// Shared by every topology: a command fails after two reconnection attempts (the caller answers 503 rather
// than waiting on an outage), and commands issued together travel in one round trip.
const common: RedisOptions = {
  lazyConnect: false,
  maxRetriesPerRequest: 2,
  enableAutoPipelining: true,
  // After a failover a connection may still reach the demoted primary (now a replica): reconnect, which
  // asks the Sentinels again, and resend the command.
  reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
};

/**
 * The one place a Redis client is created: SESAME_REDIS_URL's three forms (parseRedisUrl) become a plain
 * client, a Sentinel client (it asks the Sentinels for the primary, and again after every failover) or a
 * Cluster client (it learns the slot map and follows MOVED/ASK redirections).
 */
export function createRedisClient(url: string): RedisClient {
  const target = parseRedisUrl(url);
  switch (target.topology) {
    case 'standalone':
      return new Redis(url, common);
    case 'sentinel':
      return new Redis({
        ...common,
        sentinels: target.sentinels,
        name: target.masterName,
        db: target.db,
        username: target.username,
        password: target.password,
        sentinelPassword: target.sentinelPassword,
        ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
        // Sentinels publish +switch-master: the client moves to the new primary without waiting for an error.
        failoverDetector: true,
      });
    case 'cluster':
      return new Cluster(target.nodes, {
        enableAutoPipelining: true,
        redisOptions: {
          ...common,
          username: target.username,
          password: target.password,
          ...(target.tls ? { tls: {} } : {}),
        },
      });
  }
}

/** Whether keys of one multi-key command or script must share a hash slot (Redis Cluster). */
export const isCluster = (client: RedisClient): client is Cluster => client instanceof Cluster;
