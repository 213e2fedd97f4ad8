export { configSchema, loadActivityLogConfig, type ActivityLogConfig } from './config';
export { createActivityLogService, type ActivityLogOverrides } from './service';
