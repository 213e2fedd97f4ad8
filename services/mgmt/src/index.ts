export { PUBLISHED_ADMIN_KEYS, configSchema, loadMgmtConfig, type MgmtConfig } from './config';
export { createMgmtService, type MgmtOverrides } from './service';
export { memoryAdmins, type AdminsRepositories } from './admins';
export { createSupportPort, type SupportPortDeps } from './support/grpc-support';
export type { SupportPort } from './support/port';
export { supportFlowsPeer } from './peers';
export { streamExport, type ExportFormat } from './use-cases/people/export';
