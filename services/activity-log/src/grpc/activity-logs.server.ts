import { type AsyncServer, type Clock, type Logger, systemClock } from '@sesame/platform';
import type { activitylogs } from '@sesame/proto';
import type { ActivityLogRepository } from '../repositories/activity-logs.repository';
import type { AdminLogRepository } from '../repositories/admin-logs.repository';
import { countFlows, eraseFlows, listAttemptedEmails } from './erase-flows';
import { queryActivityLogs } from './query-activity-logs';
import { queryAdminLogs } from './query-admin-logs';
import { exportFlows, getFlow, listFlows } from './support-flows';

export interface ActivityLogsRepositories {
  activityLogs: ActivityLogRepository;
  adminLogs: AdminLogRepository;
}

/** The ActivityLogs gRPC service over the given repositories; register with GrpcServer.add. */
export function activityLogsGrpc(
  repos: ActivityLogsRepositories,
  opts: { clock?: Clock; logger?: Logger } = {},
): AsyncServer<activitylogs.ActivityLogsServiceServer> {
  return {
    queryActivityLogs: queryActivityLogs(repos.activityLogs),
    queryAdminLogs: queryAdminLogs(repos.adminLogs),
    listFlows: listFlows(repos.activityLogs),
    getFlow: getFlow(repos.activityLogs),
    exportFlows: exportFlows(repos.activityLogs, opts.clock ?? systemClock, opts.logger),
    countFlows: countFlows(repos.activityLogs),
    eraseFlows: eraseFlows(repos.activityLogs),
    listAttemptedEmails: listAttemptedEmails(repos.activityLogs),
  };
}
