export { DEV_ADMIN_KEY, configSchema, loadMgmtConfig, type MgmtConfig } from './config';
export { createMgmtService, type MgmtOverrides } from './service';
