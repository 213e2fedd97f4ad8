import type { EmbeddedStore } from '@sesame/embedded-store';
import type { Logger } from '@sesame/platform';
import type { Connection } from 'mongoose';
import type { ActivityLogsRepositories } from '../grpc/activity-logs.server';
import { MemoryActivityLogRepository } from './activity-logs.memory';
import { MongoActivityLogRepository } from './activity-logs.mongo';
import { SqliteActivityLogRepository } from './activity-logs.sqlite';
import { MemoryAdminLogRepository } from './admin-logs.memory';
import { MongoAdminLogRepository } from './admin-logs.mongo';
import { SqliteAdminLogRepository } from './admin-logs.sqlite';

export interface OpenedRepositories extends ActivityLogsRepositories {
  /**
   * Set when the store does not expire logs by itself — in memory, in the embedded engine, or a Mongo server
   * without TTL indexes (FerretDB 1.x): the service then purges expired logs itself.
   */
  purgeExpired?: (now: number) => Promise<number>;
}

const DAY_MS = 86_400_000;

/**
 * Mongo repositories when a connection is given, else the embedded engine's when one is (the embedded
 * default), else in-memory ones.
 */
export async function openRepositories(
  conn: Connection | undefined,
  opts: {
    activityRetentionDays: number;
    adminRetentionDays: number;
    logger: Logger;
    embedded?: EmbeddedStore;
  },
): Promise<OpenedRepositories> {
  if (!conn && opts.embedded) {
    const activityLogs = new SqliteActivityLogRepository(opts.embedded, {
      retentionMs: opts.activityRetentionDays * DAY_MS,
    });
    const adminLogs = new SqliteAdminLogRepository(opts.embedded, {
      retentionMs: opts.adminRetentionDays * DAY_MS,
    });
    return {
      activityLogs,
      adminLogs,
      purgeExpired: async (now) =>
        (await activityLogs.purgeExpired(now)) + (await adminLogs.purgeExpired(now)),
    };
  }
  if (!conn) {
    const activityLogs = new MemoryActivityLogRepository(opts.activityRetentionDays * DAY_MS);
    const adminLogs = new MemoryAdminLogRepository(opts.adminRetentionDays * DAY_MS);
    return {
      activityLogs,
      adminLogs,
      purgeExpired: async (now) =>
        (await activityLogs.purgeExpired(now)) + (await adminLogs.purgeExpired(now)),
    };
  }
  const activity = await MongoActivityLogRepository.open(conn, {
    retentionDays: opts.activityRetentionDays,
    logger: opts.logger,
  });
  const admin = await MongoAdminLogRepository.open(conn, {
    retentionDays: opts.adminRetentionDays,
    logger: opts.logger,
  });
  const noTtl = [...activity.refusedIndexes, ...admin.refusedIndexes].includes('expireAt');
  if (noTtl)
    opts.logger.warn('no TTL indexes on this Mongo server; expired logs are purged by the service instead');
  return {
    activityLogs: activity.repository,
    adminLogs: admin.repository,
    purgeExpired: noTtl
      ? async (now) =>
          (await activity.repository.purgeExpired(now)) + (await admin.repository.purgeExpired(now))
      : undefined,
  };
}
