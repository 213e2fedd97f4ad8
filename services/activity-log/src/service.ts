import { activitylogs, topics } from '@sesame/proto';
import { type ServiceOverrides, defineService } from '@sesame/runtime';
import type { ActivityLogConfig } from './config';
import { createAdminEventsConsumer } from './consumers/admin-events.consumer';
import { createFlowEventsConsumer } from './consumers/flow-events.consumer';
import { activityLogsGrpc } from './grpc/activity-logs.server';
import { createFunnelMetrics } from './metrics/signin-funnel';
import { openRepositories } from './repositories/open-repositories';

export type ActivityLogOverrides = ServiceOverrides;

const PURGE_EVERY_MS = 3_600_000;

export const createActivityLogService = defineService<ActivityLogConfig, ActivityLogOverrides>(
  'activity-log',
  { events: true, mongo: true },
  async ({ config, logger, metrics, stores }) => {
    const bus = stores.bus!;
    const repos = await openRepositories(stores.mongo, {
      activityRetentionDays: config.SESAME_ACTIVITY_RETENTION_DAYS,
      adminRetentionDays: config.SESAME_ADMIN_RETENTION_DAYS,
      logger,
      embedded: stores.embedded,
    });
    const consumerLogger = logger.child({ component: 'consumer' });
    const funnel = createFunnelMetrics(metrics.registry, {
      abandonAfterMs: config.SESAME_FUNNEL_ABANDON_AFTER_S * 1000,
      sweepMs: config.SESAME_FUNNEL_SWEEP_MS,
      apps: config.SESAME_FUNNEL_APPS,
    });
    const consumers = [
      createFlowEventsConsumer({
        bus,
        repository: repos.activityLogs,
        logger: consumerLogger,
        groupId: `${config.SESAME_ACTIVITY_CONSUMER_GROUP}.flow-events`,
        maxBatchSize: config.SESAME_ACTIVITY_BATCH_SIZE,
        funnel: funnel.funnel,
      }),
      createAdminEventsConsumer({
        bus,
        repository: repos.adminLogs,
        logger: consumerLogger,
        groupId: `${config.SESAME_ACTIVITY_CONSUMER_GROUP}.admin-events`,
      }),
    ];
    let purgeTimer: NodeJS.Timeout | undefined;
    const purge = async () => {
      try {
        const deleted = await repos.purgeExpired?.(Date.now());
        if (deleted) logger.info({ deleted }, 'expired activity and admin logs purged');
      } catch (err) {
        logger.warn({ err }, 'purging expired logs failed; retrying later');
      }
    };
    return {
      grpc: (server) =>
        server.add<activitylogs.ActivityLogsServiceServer>(
          activitylogs.ActivityLogsServiceService,
          activityLogsGrpc(repos, { logger }),
        ),
      async start() {
        await bus.ensureTopics([
          topics.flowEvents,
          topics.adminEvents,
          topics.flowEventsDeadLetter,
          topics.adminEventsDeadLetter,
        ]);
        for (const consumer of consumers) await consumer.start();
        funnel.start();
        if (repos.purgeExpired) {
          void purge();
          purgeTimer = setInterval(purge, PURGE_EVERY_MS);
          purgeTimer.unref();
        }
      },
      async stop() {
        clearInterval(purgeTimer);
        funnel.stop();
        await Promise.allSettled(consumers.map((c) => c.stop()));
      },
    };
  },
);
