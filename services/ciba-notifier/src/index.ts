export { configSchema, loadCibaNotifierConfig, type CibaNotifierConfig } from './config';
export { createCibaNotifierService, type CibaNotifierOverrides } from './service';
