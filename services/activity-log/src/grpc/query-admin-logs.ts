import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { activitylogs } from '@sesame/proto';
import type { AdminLogQuery } from '../domain/activity-record';
import type { AdminLogRepository } from '../repositories/admin-logs.repository';
import { adminLimits } from './limits';
import { adminEntryToProto } from './to-proto';

const invalid = (message: string) => new GrpcError(GrpcStatus.INVALID_ARGUMENT, message);

/** take 0 (unset) means the default of 300. */
export function adminQueryOf(req: activitylogs.QueryAdminLogsRequest): AdminLogQuery {
  if (!req.tenantId) throw invalid('tenant_id is required');
  if (req.fromTime < 0 || req.toTime <= req.fromTime) throw invalid('need 0 <= from_time < to_time');
  if (req.toTime - req.fromTime > adminLimits.maxSpanMs)
    throw invalid('from_time to to_time spans more than 30 days');
  if (req.skip < 0 || req.skip > adminLimits.maxSkip) throw invalid('skip must be 0..1000');
  if (req.take < 0 || req.take > adminLimits.maxTake) throw invalid('take must be 0..500');
  return {
    tenantId: req.tenantId,
    fromTime: req.fromTime,
    toTime: req.toTime,
    skip: req.skip,
    take: req.take || adminLimits.defaultTake,
  };
}

export const queryAdminLogs =
  (repository: AdminLogRepository) =>
  async (req: activitylogs.QueryAdminLogsRequest): Promise<activitylogs.QueryAdminLogsResponse> => {
    const page = await repository.query(adminQueryOf(req));
    return { count: page.events.length, total: page.total, events: page.events.map(adminEntryToProto) };
  };
