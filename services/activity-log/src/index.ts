export { configSchema, loadActivityLogConfig, type ActivityLogConfig } from './config';
export { createActivityLogService, type ActivityLogOverrides } from './service';
export { activityLogsGrpc, type ActivityLogsRepositories } from './grpc/activity-logs.server';
export { MemoryActivityLogRepository } from './repositories/activity-logs.memory';
export { MemoryAdminLogRepository } from './repositories/admin-logs.memory';
export { MongoActivityLogRepository } from './repositories/activity-logs.mongo';
export type { ActivityLogRepository } from './repositories/activity-logs.repository';
export type { AdminLogRepository } from './repositories/admin-logs.repository';
export { createFlowEventsConsumer, flowEventsHandler } from './consumers/flow-events.consumer';
