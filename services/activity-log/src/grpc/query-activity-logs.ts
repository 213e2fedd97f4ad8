import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { activitylogs } from '@sesame/proto';
import type { ActivityLogQuery } from '../domain/activity-record';
import type { ActivityLogRepository } from '../repositories/activity-logs.repository';
import { activityLimits } from './limits';
import { recordToProto } from './to-proto';

const invalid = (message: string) => new GrpcError(GrpcStatus.INVALID_ARGUMENT, message);

/** pageSize 0 (unset) means the default page of 100. */
export function activityQueryOf(req: activitylogs.QueryActivityLogsRequest): ActivityLogQuery {
  if (!req.tenantId) throw invalid('tenant_id is required');
  if (!req.appId) throw invalid('app_id is required');
  if (req.timeStart < 0 || req.timeEnd <= req.timeStart) throw invalid('need 0 <= time_start < time_end');
  if (req.pageSize < 0 || req.pageSize > activityLimits.maxPageSize)
    throw invalid(`page_size must be 0..${activityLimits.maxPageSize}`);
  if (req.skip < 0) throw invalid('skip must be >= 0');
  return {
    tenantId: req.tenantId,
    appId: req.appId,
    timeStart: req.timeStart,
    timeEnd: req.timeEnd,
    skip: req.skip,
    pageSize: req.pageSize || activityLimits.defaultPageSize,
    ...(req.userId !== undefined ? { userId: req.userId } : {}),
    ...(req.userAlias !== undefined ? { userAlias: req.userAlias } : {}),
  };
}

export const queryActivityLogs =
  (repository: ActivityLogRepository) =>
  async (req: activitylogs.QueryActivityLogsRequest): Promise<activitylogs.QueryActivityLogsResponse> => {
    const records = await repository.query(activityQueryOf(req));
    return { activityLogs: records.map(recordToProto) };
  };
