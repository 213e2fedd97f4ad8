import type { activitylogs } from '@sesame/proto';
import type { EraseTarget } from '../domain/flow-query';
import type { ActivityLogRepository } from '../repositories/activity-logs.repository';
import { MAX_TEXT, flowFilterOf, invalid, tenantOf } from './support-flows';

/** CountFlows: how many of the tenant's records match the filter (checked as ListFlows checks it). */
export const countFlows =
  (repository: ActivityLogRepository) =>
  async (req: activitylogs.CountFlowsRequest): Promise<activitylogs.CountFlowsResponse> => {
    const tenantId = tenantOf(req.tenantId);
    return { count: await repository.countFlows(tenantId, flowFilterOf(req.filter)) };
  };

/** EraseFlows: the tenant's records of a user id and/or a typed address; at least one must be given. */
export const eraseFlows =
  (repository: ActivityLogRepository) =>
  async (req: activitylogs.EraseFlowsRequest): Promise<activitylogs.EraseFlowsResponse> => {
    const tenantId = tenantOf(req.tenantId);
    const target: EraseTarget = {};
    for (const field of ['userId', 'attemptedEmail'] as const) {
      const v = req[field];
      if (v === undefined) continue;
      if (v.length === 0 || v.length > MAX_TEXT) throw invalid(`${field} must be 1..${MAX_TEXT} characters`);
      target[field] = v;
    }
    if (target.userId === undefined && target.attemptedEmail === undefined)
      throw invalid('user_id or attempted_email is required');
    return { erased: await repository.eraseFlows(tenantId, target) };
  };

/** The most addresses one ListAttemptedEmails answers. */
export const MAX_ATTEMPTED_EMAILS = 50;

/**
 * ListAttemptedEmails: the distinct addresses typed in the tenant's flows starting with the prefix (3+
 * characters, compared in lower case as addresses are stored), at most `limit` (1..50).
 */
export const listAttemptedEmails =
  (repository: ActivityLogRepository) =>
  async (req: activitylogs.ListAttemptedEmailsRequest): Promise<activitylogs.ListAttemptedEmailsResponse> => {
    const tenantId = tenantOf(req.tenantId);
    const prefix = req.prefix.trim().toLowerCase();
    if (prefix.length < 3 || prefix.length > MAX_TEXT)
      throw invalid(`prefix must be 3..${MAX_TEXT} characters`);
    if (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > MAX_ATTEMPTED_EMAILS)
      throw invalid(`limit must be 1..${MAX_ATTEMPTED_EMAILS}`);
    return { emails: await repository.attemptedEmails(tenantId, prefix, req.limit) };
  };
